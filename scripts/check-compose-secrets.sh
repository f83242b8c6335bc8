#!/usr/bin/env bash
# Offline check of docker-compose.yml (no containers started): it refuses to start while any secret is unset, each
# secret it names is required (no default value), it is valid once all are set, and published ports listen on
# 127.0.0.1 only. Exits non-zero on the first failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMPOSE=(docker-compose); command -v docker-compose >/dev/null || COMPOSE=(docker compose)
SECRETS=(PODIUM_MASTER_KEY PODIUM_ADMIN_TOKEN POSTGRES_PASSWORD PODIUM_QUERY_DB_PASSWORD PODIUM_KAFKA_ADMIN_PASSWORD
  PODIUM_KAFKA_INGEST_PASSWORD)
fail() { echo "compose check FAILED: $*" >&2; exit 1; }
EMPTY_ENV="$(mktemp)"; trap 'rm -f "$EMPTY_ENV"' EXIT
config() { # VAR=value ... : docker compose config with only these variables set (and an empty env file, not .env)
  env -i PATH="$PATH" HOME="${HOME:-/tmp}" "$@" "${COMPOSE[@]}" --env-file "$EMPTY_ENV" -f "$ROOT/docker-compose.yml" config
}

config >/dev/null 2>&1 && fail "compose config succeeds with no secret set"
for v in "${SECRETS[@]}"; do
  some=(); for w in "${SECRETS[@]}"; do [ "$w" = "$v" ] || some+=("$w=test-$w-value"); done
  err=$(config "${some[@]}" 2>&1 >/dev/null) && fail "compose config succeeds without $v"
  grep -q "$v" <<<"$err" || fail "without $v, the error does not name it: $err"
done
all=(); for v in "${SECRETS[@]}"; do all+=("$v=test-$v-value"); done
out=$(config "${all[@]}" 2>&1) || fail "with every secret set, compose config fails: $out"
grep -q 'local-only\|local-trial' <<<"$out" && fail "a default secret is still in the file"
# Every published port is bound to 127.0.0.1 (compose prints short-syntax mappings: [host_ip:]host:container[/proto]).
ports=$(grep -E '^\s*- "?([0-9.]+:)?[0-9]+:[0-9]+' <<<"$out" || true)
[ -n "$ports" ] || fail "no published port in the short form host_ip:host:container"
bad=$(grep -vE '^\s*- "?127\.0\.0\.1:' <<<"$ports" || true)
[ -z "$bad" ] || fail "ports published beyond 127.0.0.1: $bad"
echo "compose check ok: ${#SECRETS[@]} secrets required, none defaulted, ports on 127.0.0.1"
