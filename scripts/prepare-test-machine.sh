#!/usr/bin/env bash
# Prepares a fresh Debian machine for Podium's test suite: a running PostgreSQL at 127.0.0.1:5432 with trust auth for
# user postgres, PyTorch for /usr/bin/python3 (Debian's python3-torch), headless Chromium with its driver, and the
# small tools the end-to-end checks use (jq, curl, git, docker-compose for offline validation).
# Safe to run again: each step checks first and does nothing when its part is already there.
set -euo pipefail

say() { printf '[prepare] %s\n' "$*"; }
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; return 1; fi
}

apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

postgres_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

ensure_postgres() {
  if command -v pg_isready >/dev/null && postgres_up; then
    say "PostgreSQL is running"
    return
  fi
  if ! command -v pg_lsclusters >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    say "installing PostgreSQL"
    apt_install postgresql
  fi
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  # Tests connect as postgres over TCP without a password, as on the CI machines.
  if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
    as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  say "starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do postgres_up && break; sleep 1; done
  postgres_up || { say "PostgreSQL did not start; see /var/log/postgresql"; exit 1; }
}

ensure_torch() {
  if /usr/bin/python3 -c 'import torch, torchvision, PIL' 2>/dev/null; then
    say "PyTorch is installed for /usr/bin/python3"
  else
    say "installing python3-torch, python3-torchvision, python3-pil (about 75 s)"
    apt_install python3-torch python3-torchvision python3-pil
  fi
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    say "Chromium is installed"
  else
    say "installing chromium and chromium-driver"
    apt_install chromium chromium-driver
  fi
}

ensure_compose() {
  if command -v docker-compose >/dev/null; then
    say "docker-compose is installed"
  else
    say "installing docker-compose (used offline to validate docker-compose.yml)"
    apt_install docker-compose || say "docker-compose not available; its validation test will say so"
  fi
}

ensure_tools() {
  if command -v jq >/dev/null && command -v curl >/dev/null && command -v git >/dev/null; then
    say "jq, curl and git are installed"
  else
    say "installing jq, curl and git (used by the end-to-end checks)"
    apt_install jq curl git
  fi
}

ensure_tools
ensure_postgres
ensure_torch
ensure_chromium
ensure_compose
