#!/usr/bin/env bash
# Takes the README's picture from the running platform: the page `./podium up` points a newcomer to (/local, this
# machine's sweep beside the published devices), as headless Chromium draws it 1400 px wide.
# Usage: scripts/readme-screenshot.sh [OUTPUT.png]   (default docs/podium-up.png; the port is ./podium up's, or
# PODIUM_QUERY_PORT). It refuses while the local sweep has not reached the page, and a picture of 300 KB or more.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT=${1:-$ROOT/docs/podium-up.png}
PORT=${PODIUM_QUERY_PORT:-$(cat "$ROOT/.podium/query-port" 2>/dev/null || echo 8080)}
URL="http://127.0.0.1:$PORT/local"
MAX_BYTES=$((300 * 1024))

fail() { printf '[readme-screenshot] %s\n' "$*" >&2; exit 1; }

command -v chromium >/dev/null || fail "chromium is missing (scripts/prepare-test-machine.sh installs it)"
json=$(curl -fsS "http://127.0.0.1:$PORT/api/v1/local" 2>/dev/null) || fail "no Podium at $URL: run ./podium up first"
python3 -c 'import json, sys; sys.exit(0 if json.loads(sys.argv[1])["local"] else 1)' "$json" \
  || fail "the local sweep is not on $URL yet; run this again once it is"

# Chromium writes into a directory of its own: its profile, and the picture before it is moved into place.
tmp=$(mktemp -d /tmp/podium-readme-screenshot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-sync \
  --disable-background-networking --disable-component-update --user-data-dir="$tmp/profile" \
  --window-size=1400,1000 --screenshot="$tmp/page.png" "$URL" >"$tmp/chromium.log" 2>&1 \
  || { cat "$tmp/chromium.log" >&2; fail "chromium could not take the picture"; }
size=$(stat -c %s "$tmp/page.png")
[ "$size" -lt "$MAX_BYTES" ] || fail "the picture is $size bytes, not under $MAX_BYTES"
mv "$tmp/page.png" "$OUT"
printf '[readme-screenshot] %s (%s bytes) from %s\n' "$OUT" "$size" "$URL"
