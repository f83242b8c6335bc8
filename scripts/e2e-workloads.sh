#!/usr/bin/env bash
# Every shipped workload class through a real agent, Kafka and ingest into the pages, on the platform that
# scripts/e2e-podium-up.sh has up: each examples/jobs spec of a class is run by the agent CLI with the local agent's key,
# then its runs' JSON and pages are read back and checked for the dimension the class varies (dataloader, nproc,
# batch size, compiler) and the compiler that ran, not only for a status 200; the mamf sweep's rate is the
# denominator of the reference runs' share-of-measured-matmul column.
# Usage: e2e-workloads.sh CHECKOUT QUERY_URL KAFKA_BOOTSTRAP
set -euo pipefail

CHECKOUT=$1
QUERY=$2
KAFKA=$3
AGENT="$CHECKOUT/runner-agent/podium-agent"
KEY="$CHECKOUT/.podium/agent.key"
HOME_DIR="$(mktemp -d /tmp/podium-e2e-workloads.XXXXXX)"
# A root agent's workload user must pass through to the agent's workload directory below it.
chmod 711 "$HOME_DIR"
trap 'rm -rf "$HOME_DIR"' EXIT

say() { printf '[e2e-workloads] %s\n' "$*"; }

# Runs one spec with the agent and prints the run ids it reported, one per line.
run_spec() { # spec
  local log="$HOME_DIR/$(basename "$1" .yaml).log"
  say "running $1" >&2 # stdout carries only the run ids
  # A point that fails (the device pipeline on a CPU host) makes the agent exit non-zero; its runs are still checked.
  "$AGENT" run "$CHECKOUT/$1" --key-file "$KEY" --bootstrap-servers "$KAFKA" --home "$HOME_DIR/agent" \
    --python /usr/bin/python3 --sample-interval-ms 500 >"$log" 2>&1 || true
  grep -oE 'run [0-9a-f-]{36}' "$log" | awk '{print $2}' | sort -u
}

# Waits until every run is visible with an end state, then checks them with a Python expression over their JSON.
check_runs() { # name python-check run-id...
  local name=$1 check=$2
  shift 2
  [ "$#" -gt 0 ] || { say "$name: the agent reported no runs"; cat "$HOME_DIR"/*.log; exit 1; }
  local deadline=$((SECONDS + 60)) runs
  while :; do
    runs="["
    local all=1
    for id in "$@"; do
      json=$(curl -fsS "$QUERY/api/v1/runs/$id" 2>/dev/null) || { all=0; break; }
      runs+="$json,"
    done
    if [ "$all" -eq 1 ] && python3 -c '
import json, sys
runs = json.loads(sys.argv[1])
sys.exit(0 if all(r["run"]["status"] in ("completed", "failed") for r in runs) else 1)' "${runs%,}]"; then
      break
    fi
    [ $SECONDS -lt $deadline ] || { say "$name: runs $* did not end on the pages within 60 s"; exit 1; }
    sleep 1
  done
  python3 - "${runs%,}]" "$check" "$name" <<'PY'
import json, sys
runs, check, name = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]

def key(r, dim):
    for e in r["key"]:
        if e["name"] == dim:
            return e["value"]
    return None

def metric(r, name):
    for m in r["results"]:
        if m["metric"] == name:
            return m
    return None

def failure(r, field):
    for e in r.get("failure") or []:
        if e["name"] == field:
            return e["value"]
    return None

ok = eval("(" + check + ")", {"runs": runs, "key": key, "metric": metric, "failure": failure})
if not ok:
    print("[e2e-workloads] %s: check failed: %s" % (name, check))
    print(json.dumps(runs, indent=1)[:6000])
    sys.exit(1)
print("[e2e-workloads] %s: ok" % name)
PY
}

page_shows() { # path text
  local html
  html=$(curl -fsS "$QUERY$1") || { say "GET $1 failed"; exit 1; }
  grep -qF -- "$2" <<<"$html" || { say "$1 does not show '$2'"; exit 1; }
}

page_shows_any() { # text run-id...
  local text=$1 id
  shift
  for id in "$@"; do
    html=$(curl -fsS "$QUERY/runs/$id") || continue
    grep -qF -- "$text" <<<"$html" && return 0
  done
  say "no run page of $* shows '$text'"; exit 1
}

mapfile -t ids < <(run_spec examples/jobs/device-pipeline.yaml)
check_runs device-pipeline '
sorted(key(r, "dataloader") for r in runs) == ["cpu", "device"]
and all(r["run"]["status"] == "completed" for r in runs if key(r, "dataloader") == "cpu")
and all(r["run"]["status"] == "failed" and failure(r, "phase") == "unsupported" and not r["results"]
        for r in runs if key(r, "dataloader") == "device")' "${ids[@]}"

# The matmul sweep first: the reference runs after it on this host are shown as a share of its rate.
mapfile -t ids < <(run_spec examples/jobs/mamf.yaml)
check_runs mamf '
len(runs) == 1 and runs[0]["run"]["status"] == "completed" and key(runs[0], "precision") == "fp32"
and metric(runs[0], "matmul_tflops")["mean"] > 0 and metric(runs[0], "matmul_tflops")["unit"] == "TFLOP/s"' "${ids[@]}"

mapfile -t ids < <(run_spec examples/jobs/scaling.yaml)
check_runs scaling '
sorted(key(r, "total_accelerators") for r in runs) == ["1", "2"]
and all(r["run"]["status"] == "completed" and metric(r, "train_samples_per_second_per_accelerator") for r in runs)' \
  "${ids[@]}"
# With failing runs included, so that a run the busy CI machine fails on CV still shows its share of the host's matmul.
scaling_key=$(curl -fsS "$QUERY/api/v1/runs/${ids[0]}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["run"]["keyId"])')
board="/leaderboard?benchmark=podium-reference&key=$scaling_key&metric=train_samples_per_second&include=failing"
page_shows "$board" "Share of measured matmul"
page_shows "$board" "TFLOP/s measured"
page_shows "$board" "no peak"
say "mamf: the reference runs' leaderboard shows their share of the host's measured matmul"

mapfile -t ids < <(run_spec examples/jobs/batch-16-vs-32.yaml)
check_runs batch-16-vs-32 '
sorted(key(r, "per_device_batch_size") for r in runs) == ["16", "32"] and all(r["run"]["status"] == "completed" for r in runs)' \
  "${ids[@]}"

mapfile -t ids < <(run_spec examples/jobs/largest-batch.yaml)
check_runs largest-batch '
len(runs) == 1 and metric(runs[0], "max_batch_size") and metric(runs[0], "max_batch_size")["mean"] >= 16
and metric(runs[0], "peak_rss_mb")' "${ids[@]}"

mapfile -t ids < <(run_spec examples/jobs/inference-image.yaml)
check_runs inference-image '
sorted(key(r, "compiler") for r in runs) == ["eager", "torchscript-freeze"]
and all(metric(r, "seconds_per_image") and "lower" in metric(r, "seconds_per_image")["direction"].lower() for r in runs)' \
  "${ids[@]}"

mapfile -t ids < <(run_spec examples/jobs/inference-text.yaml)
check_runs inference-text '
all(key(r, "input_len") == "128" and key(r, "output_len") == "64" and metric(r, "output_tokens_per_second")
    and metric(r, "ttft_ms") and metric(r, "tpot_ms") for r in runs)' "${ids[@]}"
text_run=${ids[0]}

mapfile -t ids < <(run_spec examples/jobs/compiled-vs-eager.yaml)
check_runs compiled-vs-eager '
sorted(key(r, "compiler") for r in runs) == ["eager", "eager", "torchscript-freeze", "torchscript-freeze"]
and all(r["run"]["status"] == "completed" for r in runs)' "${ids[@]}"

# Runs on a busy CI machine often fail the CV or duration check, which keeps them off leaderboards and comparisons; each
# run's own page shows its key whatever its checks say.
for id in "${ids[@]}"; do page_shows "/runs/$id" "compiler"; done
page_shows_any "torchscript-freeze" "${ids[@]}"
page_shows "/runs/$text_run" "ttft_ms"
say "passed: every workload class ran through the agent, Kafka and ingest onto the pages"
