#!/usr/bin/env bash
# Every shipped workload class on one GPU, in well under 6 minutes: the specs of gpu-classes/ run by this checkout's
# agent with a throwaway key and no broker (the agent journals what it would send), then the journaled envelopes are
# copied to examples/measured/<device>/<spec>.jsonl byte for byte, as h200/ was. Meant for a lent machine: build the
# agent first (mvn -B -q -pl runner-agent -am package -DskipTests), then run this from the repository root.
# PODIUM_GPU_SECONDS (default 330) bounds the whole: each spec gets what is left of it, at most 300 s, and the specs
# that no time is left for are listed as skipped, so a lease's fixed minutes always end with every journal dumped.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SPECS="$ROOT/examples/measured/gpu-classes"
WORK="$(mktemp -d /tmp/podium-gpu-classes.XXXXXX)"
PYTHON="${PODIUM_PYTHON:-python3}"
DEVICE="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')"
OUT="${1:-$ROOT/examples/measured/${DEVICE:-gpu}}"
mkdir -p "$OUT"
# The agent refuses a key file others may read; a workload user (root agents) must pass through $WORK to its directory.
chmod 711 "$WORK"
(umask 077; printf 'agent.id=gpu-classes\nkey.id=gpu-classes-key\nkey.secret=%s\n' "$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')" \
  > "$WORK/agent.key")

deadline=$((SECONDS + ${PODIUM_GPU_SECONDS:-330}))
for spec in device-pipeline scaling batch-16-vs-32 largest-batch inference-image inference-text compiled-vs-eager; do
  left=$((deadline - SECONDS))
  if ((left < 20)); then
    echo "[gpu-classes] $spec skipped: ${left} s left of PODIUM_GPU_SECONDS"
    continue
  fi
  echo "[gpu-classes] $spec ($SECONDS s in, at most $((left < 300 ? left : 300)) s)"
  home="$WORK/$spec"
  # 127.0.0.1:9 refuses at once: the events stay in the journal, which is what is kept.
  timeout --kill-after 10 $((left < 300 ? left : 300)) "$ROOT/runner-agent/podium-agent" run "$SPECS/$spec.yaml" --key-file "$WORK/agent.key" \
    --bootstrap-servers 127.0.0.1:9 --home "$home" --python "$PYTHON" --sample-interval-ms 500 --flush-timeout 1 \
    2>&1 | tee "$OUT/$spec.log" || true
  "$ROOT/runner-agent/podium-agent" journal --home "$home" --dump > "$OUT/$spec.jsonl" || true
  cp "$SPECS/$spec.yaml" "$OUT/$spec.yaml"
done
echo "[gpu-classes] journaled events in $OUT"
