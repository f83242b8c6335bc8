#!/usr/bin/env bash
# End-to-end check of fleet benchmarking (issue 8) on a real broker: Kafka (KRaft), PostgreSQL, ingest-service (with a
# short lease), query-service and three agent daemons in two pools (gpu-a: a1, a2; gpu-b: b1), on their own ports and
# their own database. It shows that
#   1. a campaign of 3 matrix points x 2 pools = 6 jobs runs each job exactly once per pool, and the two agents of gpu-a
#      run jobs at overlapping times;
#   2. when the agent running a job is SIGKILLed, the other agent of its pool re-runs the job once the lease expires; the
#      killed run is superseded and stays so (also after the killed agent comes back and resends its journal), and only
#      the re-run counts;
#   3. when the agent running a job is frozen (SIGSTOP) until the job went to the other agent, then let go (SIGCONT),
#      the late events of its superseded run are stored but change nothing: the run stays superseded, one run counts;
#   4. a cancelled job stops within 10 s (RunCancelled, job cancelled, workload process gone);
#   5. the fleet page (/fleet, /api/v1/fleet) shows all of it.
# Prints a summary with counts and timings; exits non-zero on any failure; stops every process it started, drops its
# database and checks that its ports are free again (on exit, Ctrl-C or TERM).
#
# Jars: from the repository this script lives in, or from PODIUM_FLEET_BUILD (a built tree, e.g. a clone where
# `mvn -o -q -B -DskipTests package` ran); built there first when missing. PODIUM_FLEET_KEEP=1 keeps the work directory
# (logs, pages); PODIUM_FLEET_OUT=DIR copies the final fleet page and JSON there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/platform.sh
. "$ROOT/scripts/lib/platform.sh"
BUILD="$(cd "${PODIUM_FLEET_BUILD:-$ROOT}" && pwd)"
WORK="$(mktemp -d /tmp/podium-fleet-e2e.XXXXXX)"
LOGS="$WORK/logs"
DB="podium_fleet_e2e_$(date +%s)_$$"
QUERY_PORT=${PODIUM_QUERY_PORT:-28080}
INGEST_PORT=${PODIUM_INGEST_PORT:-28081}
KAFKA_PORT=${PODIUM_KAFKA_PORT:-29092}
CONTROLLER_PORT=$((KAFKA_PORT + 1))
LEASE_SECONDS=${PODIUM_FLEET_LEASE:-8}
CANCEL_LIMIT=10
QUERY="http://127.0.0.1:$QUERY_PORT"
export PODIUM_ADMIN_URL="http://127.0.0.1:$INGEST_PORT"
export PODIUM_ADMIN_TOKEN
PODIUM_ADMIN_TOKEN="$(head -c 24 /dev/urandom | base64 | tr -d '/+=\n')"
ADMIN="$ROOT/ingest-service/podium-admin"
AGENT="$ROOT/runner-agent/podium-agent"
export PODIUM_AGENT_JAR="$BUILD/runner-agent/target/podium-agent.jar"
export PODIUM_AGENT_JAVA_OPTS="-Xmx160m -XX:TieredStopAtLevel=1"
mkdir -p "$LOGS"

declare -A GROUP=()   # name -> process group id (each process is started with setsid)
STARTED_AT=$SECONDS

say() { printf '[fleet-e2e %3ds] %s\n' "$((SECONDS - STARTED_AT))" "$*"; }
fail() {
  printf '[fleet-e2e] FAILED: %s\n' "$*" >&2
  for f in "$LOGS"/*.log; do
    [ -f "$f" ] || continue
    printf -- '--- %s (last 15 lines)\n' "$(basename "$f")" >&2
    tail -n 15 "$f" >&2 || true
  done
  exit 1
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Starts a command in its own session (process group = its pid) with its log under $LOGS.
start() { # name command...
  local name=$1; shift
  platform_start "$LOGS/$name.log" "$@"
  GROUP[$name]=$PLATFORM_PID
}

stop_group() { # name [signal]
  local pid=${GROUP[$1]:-}
  [ -n "$pid" ] || return 0
  platform_stop_group "$pid" "${2:-TERM}" 10 || true
  unset "GROUP[$1]"
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for name in b1 a2 a1 a1-again a2-again query ingest kafka; do stop_group "$name"; done
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  local busy=""
  for port in "$QUERY_PORT" "$INGEST_PORT" "$KAFKA_PORT" "$CONTROLLER_PORT"; do
    platform_port_in_use "$port" && busy="$busy $port"
  done
  if [ -n "$busy" ]; then
    echo "[fleet-e2e] ports still open after cleanup:$busy" >&2
    [ "$rc" -eq 0 ] && rc=1
  fi
  if [ "${PODIUM_FLEET_KEEP:-0}" = 1 ]; then
    echo "[fleet-e2e] kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------------------------- build
for port in "$QUERY_PORT" "$INGEST_PORT" "$KAFKA_PORT" "$CONTROLLER_PORT"; do
  platform_port_in_use "$port" && fail "port $port is in use (set PODIUM_QUERY_PORT, PODIUM_INGEST_PORT, PODIUM_KAFKA_PORT)"
done
command -v jq >/dev/null || fail "jq is missing (apt-get install -y jq)"
command -v psql >/dev/null || fail "psql is missing (apt-get install -y postgresql-client)"
if [ ! -f "$BUILD/ingest-service/target/quarkus-app/quarkus-run.jar" ] \
   || [ ! -f "$BUILD/query-service/target/quarkus-app/quarkus-run.jar" ] || [ ! -f "$PODIUM_AGENT_JAR" ]; then
  say "building $BUILD (tests skipped)"
  (cd "$BUILD" && mvn -o -q -B -DskipTests package) >"$LOGS/build.log" 2>&1 || fail "the build failed"
fi
KAFKA_LIBS="$ROOT/.podium/kafka/libs"
[ -f "$KAFKA_LIBS/.complete" ] || KAFKA_LIBS="$WORK/kafka-libs"
platform_kafka_libs "$KAFKA_LIBS" "$LOGS/kafka-fetch.log" >/dev/null || fail "could not get Kafka's jars"

# ------------------------------------------------------------------------------------------------------------ platform
platform_kafka_configure "$WORK/kafka" "$KAFKA_PORT"
platform_kafka_format "$WORK/kafka" "$KAFKA_LIBS" "$LOGS/kafka.log" || fail "could not format Kafka's storage"
say "starting Kafka (KRaft) on 127.0.0.1:$KAFKA_PORT"
platform_kafka_command "$WORK/kafka" "$KAFKA_LIBS" 384m
start kafka "${PLATFORM_KAFKA_COMMAND[@]}"

psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $DB" || fail "could not create database $DB on 127.0.0.1:5432"
DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB"
sql() { psql -h 127.0.0.1 -U postgres -d "$DB" -tAq -v ON_ERROR_STOP=1 -c "$1"; }

wait_until() { # seconds description command...
  local limit=$1 what=$2; shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || fail "$what: not within $limit s"
    sleep 0.5
  done
}
wait_until 90 "Kafka listening on $KAFKA_PORT" platform_port_in_use "$KAFKA_PORT"

MASTER_KEY="$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
SERVICE_OPTS=(-Xmx384m -XX:TieredStopAtLevel=1 "-Dquarkus.datasource.jdbc.url=$DB_URL" -Dquarkus.datasource.username=postgres
  -Dquarkus.datasource.password= "-Dkafka.bootstrap.servers=127.0.0.1:$KAFKA_PORT")
say "starting ingest-service on :$INGEST_PORT (lease ${LEASE_SECONDS}s, reaper every 1s)"
start ingest java "${SERVICE_OPTS[@]}" -Dquarkus.http.port="$INGEST_PORT" -Dpodium.admin.tokens.e2e="$PODIUM_ADMIN_TOKEN" \
  -Dpodium.ingest.master-key="$MASTER_KEY" -Dpodium.ingest.jobs.lease-duration="${LEASE_SECONDS}s" \
  -Dpodium.ingest.jobs.reaper-interval=1s -Dpodium.ingest.jobs.relay-interval=200ms \
  -jar "$BUILD/ingest-service/target/quarkus-app/quarkus-run.jar"
wait_until 180 "ingest-service ready" curl -fsS -o /dev/null "$PODIUM_ADMIN_URL/q/health/ready"
say "starting query-service on :$QUERY_PORT"
start query java "${SERVICE_OPTS[@]}" -Dquarkus.http.port="$QUERY_PORT" -Dpodium.query.online-window=PT10S \
  -jar "$BUILD/query-service/target/quarkus-app/quarkus-run.jar"
wait_until 180 "query-service ready" curl -fsS -o /dev/null "$QUERY/q/health/ready"

# ---------------------------------------------------------------------------------------------------------------- agents
declare -A POOL=([a1]=gpu-a [a2]=gpu-a [b1]=gpu-b)
for agent in a1 a2 b1; do
  (umask 077; "$ADMIN" agent add "$agent" --pool "${POOL[$agent]}" >"$WORK/$agent.json") || fail "podium-admin agent add $agent"
  (umask 077; jq -r --arg pool "${POOL[$agent]}" \
    '"agent.id=\(.agent_id)\nkey.id=\(.key_id)\nkey.secret=\(.secret)\ncommand.public.key=\(.command_public_key)\npool=\($pool)"' "$WORK/$agent.json" >"$WORK/$agent.key")
  rm -f "$WORK/$agent.json"
done
declare -A AGENT_GROUP=()   # agent -> name of its current process group
start_agent() { # agent [log name]
  AGENT_GROUP[$1]=${2:-$1}
  start "${2:-$1}" "$AGENT" daemon --key-file "$WORK/$1.key" --home "$WORK/home-$1" --bootstrap-servers "127.0.0.1:$KAFKA_PORT" \
    --heartbeat-interval 1 --claim-timeout 15 --flush-timeout 5
}
say "keys issued with podium-admin; starting agent daemons a1, a2 (pool gpu-a) and b1 (pool gpu-b)"
for agent in a1 a2 b1; do start_agent "$agent"; done

fleet_json() { curl -fsS "$QUERY/api/v1/fleet"; }
online() { # agent
  fleet_json | jq -e --arg a "$1" '.agents[] | select(.agentId == $a and .online)' >/dev/null
}
for agent in a1 a2 b1; do wait_until 120 "agent $agent online on /api/v1/fleet" online "$agent"; done
say "all three agents online"

admin_json() { "$ADMIN" "$@" 2>>"$LOGS/admin.log"; }
submit() { # file pools name -> campaign id
  local out
  out=$(admin_json campaign submit "$1" --pools "$2" --name "$3") || fail "podium-admin campaign submit $1: $out"
  jq -er .campaign_id <<<"$out" || fail "no campaign id in: $out"
}
campaign() { admin_json campaign show "$1"; }
job() { admin_json job show "$1"; }
run_status() { curl -fsS "$QUERY/api/v1/runs/$1" | jq -r .run.status; }

# ------------------------------------------------------------------------------------- 1. six jobs, each exactly once
t0=$(now)
C1=$(submit "$ROOT/examples/campaigns/fleet-sweep.yaml" gpu-a,gpu-b "fleet sweep (e2e)")
say "campaign 1 ($C1): 3 points x 2 pools submitted"
# While it runs, the fleet page reloads itself (no script) and /api/v1/fleet shows the jobs' states; the most jobs seen
# assigned at once is recorded.
live_page=$(curl -fsS "$QUERY/fleet") || fail "GET /fleet"
grep -q '<meta http-equiv="refresh" content="5">' <<<"$live_page" || fail "the fleet page does not reload while jobs run"
MAX_ASSIGNED=0
settled() {
  local assigned
  assigned=$(fleet_json | jq --arg c "$C1" '.campaigns[] | select(.campaignId == $c) | .states.assigned')
  [ "${assigned:-0}" -gt "$MAX_ASSIGNED" ] && MAX_ASSIGNED=$assigned
  campaign "$C1" | jq -e '[.jobs[].state] | length == 6 and all(. == "done" or . == "failed" or . == "cancelled")'
}
deadline=$((SECONDS + 300))
until settled >/dev/null 2>&1; do
  [ $SECONDS -lt $deadline ] || fail "campaign 1 finished: not within 300 s"
  sleep 0.5
done
t1=$(now)
C1_JSON=$(campaign "$C1")
jq -e '[.jobs[] | select(.state == "done")] | length == 6' <<<"$C1_JSON" >/dev/null \
  || fail "campaign 1: not every job done: $(jq -c .states <<<"$C1_JSON")"
jq -e '[.jobs[] | select(.lease_epoch == 1)] | length == 6' <<<"$C1_JSON" >/dev/null || fail "campaign 1: a job needed a second lease"
for pool in gpu-a gpu-b; do
  points=$(jq -r --arg p "$pool" '[.jobs[] | select(.pool == $p) | .parameters.point] | sort | join(",")' <<<"$C1_JSON")
  [ "$points" = "1,2,3" ] || fail "campaign 1, pool $pool: points $points, expected 1,2,3 once each"
done
C1_IDS=$(jq -r '[.jobs[].job_id] | map("'"'"'" + . + "'"'"'") | join(",")' <<<"$C1_JSON")
completed=$(sql "SELECT count(*) FROM proj_run WHERE job_id IN ($C1_IDS) AND status = 'completed'")
counted=$(sql "SELECT count(DISTINCT r.run_id) FROM proj_run r JOIN proj_result x ON x.run_id = r.run_id WHERE r.job_id IN ($C1_IDS)")
claims=$(sql "SELECT count(*) FROM proj_run WHERE job_id IN ($C1_IDS)")
[ "$completed" = 6 ] || fail "campaign 1: $completed completed runs, expected exactly 6"
# The fleet path of campaign 1's runs, claim -> grant -> start, as the database recorded each step: when ingest stored
# the JobClaimed, when it granted the claim, and when it stored the RunStarted of the granted run.
FLEET_PATH=$(sql "SELECT concat_ws(' ', round(percentile_cont(0.5) WITHIN GROUP (ORDER BY g)::numeric, 2),
    round(max(g)::numeric, 2), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s)::numeric, 2), round(max(s)::numeric, 2))
  FROM (SELECT extract(epoch FROM jg.granted_at - c.recorded_at) AS g, extract(epoch FROM r.recorded_at - jg.granted_at) AS s
        FROM job_grant jg
        JOIN event_store c ON c.stream_id = 'run/' || jg.run_id AND c.type = 'JobClaimed'
        JOIN event_store r ON r.stream_id = 'run/' || jg.run_id AND r.type = 'RunStarted'
        WHERE jg.job_id IN ($C1_IDS)) t")
read -r CLAIM_GRANT_P50 CLAIM_GRANT_MAX GRANT_START_P50 GRANT_START_MAX <<<"$FLEET_PATH"
wrong_agent=$(jq -r '[.jobs[] | select((.pool == "gpu-a" and (.agent_id == "a1" or .agent_id == "a2" | not))
  or (.pool == "gpu-b" and .agent_id != "b1"))] | length' <<<"$C1_JSON")
[ "$wrong_agent" = 0 ] || fail "campaign 1: a job ran on an agent of another pool"

F1=$(fleet_json)
jq -e --arg c "$C1" '.campaigns[] | select(.campaignId == $c) | .states.done == 6 and ([.pools[].jobs[] | .earlier | length] | add == 0)' \
  <<<"$F1" >/dev/null || fail "/api/v1/fleet does not show campaign 1 with 6 done jobs and no superseded lease"
# The jobs of gpu-a as the fleet page has them: agent, start and end of the run.
GPU_A=$(jq -c --arg c "$C1" '[.campaigns[] | select(.campaignId == $c) | .pools[] | select(.pool == "gpu-a") | .jobs[]
  | {agent: .agentId, start: .startedAt, end: .finishedAt}]' <<<"$F1")
overlap=$(python3 - "$GPU_A" <<'PY'
import json, sys
from datetime import datetime
def t(s): return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
jobs = json.loads(sys.argv[1])
agents = sorted({j["agent"] for j in jobs})
best = 0.0
for a in jobs:
    for b in jobs:
        if a["agent"] < b["agent"]:
            best = max(best, min(t(a["end"]), t(b["end"])) - max(t(a["start"]), t(b["start"])))
print("%s %.1f" % (",".join(agents), best))
PY
)
read -r gpu_a_agents overlap_seconds <<<"$overlap"
[ "$gpu_a_agents" = "a1,a2" ] || fail "campaign 1: the jobs of gpu-a ran on $gpu_a_agents, expected both a1 and a2"
awk -v o="$overlap_seconds" 'BEGIN { exit !(o > 0) }' || fail "campaign 1: a1 and a2 never ran jobs at the same time"
jobs_a1=$(jq -r '[.jobs[] | select(.agent_id == "a1")] | length' <<<"$C1_JSON")
jobs_a2=$(jq -r '[.jobs[] | select(.agent_id == "a2")] | length' <<<"$C1_JSON")
C1_SECONDS=$(elapsed "$t0" "$t1")
say "campaign 1: 6/6 jobs done once each in ${C1_SECONDS}s; gpu-a: a1 ran $jobs_a1, a2 ran $jobs_a2, overlapping ${overlap_seconds}s;" \
  "gpu-b: b1 ran 3; $claims runs claimed, 6 granted and completed"

# ------------------------------------------------------------------------ 2. an agent killed mid-job, the job re-run
C2=$(submit "$ROOT/examples/campaigns/fleet-long.yaml" gpu-a "fleet long job (e2e: agent killed)")
J2=$(campaign "$C2" | jq -r '.jobs[0].job_id')
running_run() { # job -> prints the run id once its run has started
  local run; run=$(job "$1" | jq -r 'select(.state == "assigned") | .run_id // empty')
  [ -n "$run" ] && [ "$(run_status "$run")" = running ] && echo "$run"
}
wait_until 120 "campaign 2's job running" running_run "$J2"
RUN_KILLED=$(running_run "$J2")
VICTIM=$(job "$J2" | jq -r .agent_id)
case "$VICTIM" in a1) SURVIVOR=a2 ;; a2) SURVIVOR=a1 ;; *) fail "campaign 2's job went to $VICTIM, not to gpu-a" ;; esac
sleep 2
say "campaign 2: job $J2 running on $VICTIM (run $RUN_KILLED); SIGKILL to $VICTIM and its workload"
t_kill=$(now)
stop_group "$VICTIM" KILL
regranted() { job "$J2" | jq -e --arg s "$SURVIVOR" '.lease_epoch == 2 and .agent_id == $s and .run_id != null'; }
wait_until $((LEASE_SECONDS * 6 + 30)) "campaign 2's job granted again to $SURVIVOR" regranted
t_regrant=$(now)
[ "$(run_status "$RUN_KILLED")" = superseded ] || fail "the killed run $RUN_KILLED is $(run_status "$RUN_KILLED"), not superseded"
j2_done() { job "$J2" | jq -e '.state == "done"'; }
wait_until 120 "campaign 2's job done by $SURVIVOR" j2_done
t_rerun_done=$(now)
RUN_RERUN=$(job "$J2" | jq -r .run_id)
# The killed agent comes back (same home, same key): whatever its journal still held is sent now, late.
late_pending=$(find "$WORK/home-$VICTIM/journal/pending" -type f 2>/dev/null | wc -l)
killed_events_before=$(sql "SELECT count(*) FROM event_store WHERE stream_id = 'run/$RUN_KILLED'")
start_agent "$VICTIM" "$VICTIM-again"
wait_until 120 "$VICTIM online again" online "$VICTIM"
sleep 3
killed_events_after=$(sql "SELECT count(*) FROM event_store WHERE stream_id = 'run/$RUN_KILLED'")
J2_JSON=$(job "$J2")
jq -e --arg s "$SURVIVOR" --arg r "$RUN_RERUN" '.state == "done" and .lease_epoch == 2 and .agent_id == $s and .run_id == $r' \
  <<<"$J2_JSON" >/dev/null || fail "after the killed agent came back, campaign 2's job changed: $J2_JSON"
[ "$(run_status "$RUN_KILLED")" = superseded ] || fail "the killed run is $(run_status "$RUN_KILLED") after its agent came back"
j2_completed=$(sql "SELECT count(*) FROM proj_run WHERE job_id = '$J2' AND status = 'completed'")
j2_results=$(sql "SELECT count(DISTINCT run_id) FROM proj_result WHERE run_id = '$RUN_KILLED'")
[ "$j2_completed" = 1 ] || fail "campaign 2: $j2_completed completed runs of the job, expected 1"
jq -e --arg c "$C2" --arg k "$RUN_KILLED" --arg v "$VICTIM" '.campaigns[] | select(.campaignId == $c) | .pools[0].jobs[0]
  | .state == "done" and .leaseEpoch == 2 and (.earlier | length == 1) and .earlier[0].runId == $k
  and .earlier[0].runStatus == "superseded" and .earlier[0].agentId == $v' <<<"$(fleet_json)" >/dev/null \
  || fail "/api/v1/fleet does not show campaign 2's job re-run with the killed run superseded"
KILL_TO_REGRANT=$(elapsed "$t_kill" "$t_regrant")
KILL_TO_DONE=$(elapsed "$t_kill" "$t_rerun_done")
say "campaign 2: granted again to $SURVIVOR (epoch 2) ${KILL_TO_REGRANT}s after the kill (lease ${LEASE_SECONDS}s), done" \
  "${KILL_TO_DONE}s after it; killed run superseded ($j2_results results of it stored), 1 completed run of the job"

# ------------------------------------------------ 3. an agent frozen mid-job: its late events of the old epoch never count
# SIGSTOP freezes the agent and its workload (a hung host); once the job was granted again, SIGCONT lets it go on: it
# reports late on its superseded run (it learns of the expiry and cancels, or it completes), and none of that counts.
C3=$(submit "$ROOT/examples/campaigns/fleet-long.yaml" gpu-a "fleet long job (e2e: agent frozen)")
J3=$(campaign "$C3" | jq -r '.jobs[0].job_id')
wait_until 120 "campaign 3's job running" running_run "$J3"
RUN_FROZEN=$(running_run "$J3")
FROZEN=$(job "$J3" | jq -r .agent_id)
case "$FROZEN" in a1) OTHER=a2 ;; a2) OTHER=a1 ;; *) fail "campaign 3's job went to $FROZEN, not to gpu-a" ;; esac
sleep 2
FROZEN_PIDS="${GROUP[${AGENT_GROUP[$FROZEN]}]} $(platform_descendants "${GROUP[${AGENT_GROUP[$FROZEN]}]}" | tr '\n' ' ')"
frozen_events_before=$(sql "SELECT count(*) FROM event_store WHERE stream_id = 'run/$RUN_FROZEN'")
say "campaign 3: job $J3 running on $FROZEN (run $RUN_FROZEN); SIGSTOP to $FROZEN and its workload"
t_freeze=$(now)
for p in $FROZEN_PIDS; do kill -STOP "$p" 2>/dev/null || true; done
regranted3() { job "$J3" | jq -e --arg s "$OTHER" '.lease_epoch == 2 and .agent_id == $s and .run_id != null'; }
wait_until $((LEASE_SECONDS * 6 + 30)) "campaign 3's job granted again to $OTHER" regranted3
FREEZE_TO_REGRANT=$(elapsed "$t_freeze" "$(now)")
for p in $FROZEN_PIDS; do kill -CONT "$p" 2>/dev/null || true; done
say "campaign 3: granted again to $OTHER after ${FREEZE_TO_REGRANT}s; SIGCONT to $FROZEN"
late_reported() { # the frozen run's agent has reported again (RunCancelled, or RunCompleted)
  [ "$(sql "SELECT count(*) FROM event_store WHERE stream_id = 'run/$RUN_FROZEN' AND type IN ('RunCancelled', 'RunCompleted', 'RunFailed')")" -ge 1 ]
}
wait_until 60 "late events of the frozen run stored" late_reported
j3_done() { job "$J3" | jq -e '.state == "done"'; }
wait_until 120 "campaign 3's job done by $OTHER" j3_done
J3_JSON=$(job "$J3")
jq -e --arg s "$OTHER" '.lease_epoch == 2 and .agent_id == $s' <<<"$J3_JSON" >/dev/null || fail "campaign 3's job: $J3_JSON"
[ "$(run_status "$RUN_FROZEN")" = superseded ] || fail "the frozen run is $(run_status "$RUN_FROZEN") after its late events"
frozen_events_after=$(sql "SELECT count(*) FROM event_store WHERE stream_id = 'run/$RUN_FROZEN'")
frozen_late=$(sql "SELECT string_agg(type, ', ' ORDER BY seq) FROM event_store WHERE stream_id = 'run/$RUN_FROZEN' AND seq > $frozen_events_before")
j3_completed=$(sql "SELECT count(*) FROM proj_run WHERE job_id = '$J3' AND status = 'completed'")
[ "$j3_completed" = 1 ] || fail "campaign 3: $j3_completed completed runs of the job, expected 1"
say "campaign 3: late events of the frozen run stored ($frozen_late); the run stays superseded, 1 completed run of the job"

# ----------------------------------------------------------------------------------------- 4. a cancel stops the job
C4=$(submit "$ROOT/examples/campaigns/fleet-cancel.yaml" gpu-b "fleet job to cancel (e2e)")
J4=$(campaign "$C4" | jq -r '.jobs[0].job_id')
wait_until 120 "campaign 4's job running" running_run "$J4"
RUN_CANCELLED=$(running_run "$J4")
sleep 2
WORKLOAD=$(platform_descendants "${GROUP[b1]}" | tr '\n' ' ')
[ -n "$WORKLOAD" ] || fail "b1 has no workload process while running campaign 4's job"
say "campaign 4: job $J4 running on b1 (run $RUN_CANCELLED, workload pids $WORKLOAD); cancelling it"
t_cancel=$(now)
admin_json job cancel "$J4" --reason "e2e: cancel a long job" >/dev/null || fail "podium-admin job cancel $J4"
stopped() {
  [ "$(run_status "$RUN_CANCELLED")" = cancelled ] || return 1
  for p in $WORKLOAD; do kill -0 "$p" 2>/dev/null && return 1; done
  return 0
}
wait_until 30 "campaign 4's run cancelled and its workload gone" stopped
t_stopped=$(now)
CANCEL_SECONDS=$(elapsed "$t_cancel" "$t_stopped")
awk -v s="$CANCEL_SECONDS" -v l="$CANCEL_LIMIT" 'BEGIN { exit !(s <= l) }' \
  || fail "the cancelled job took ${CANCEL_SECONDS}s to stop (limit ${CANCEL_LIMIT}s)"
[ "$(job "$J4" | jq -r .state)" = cancelled ] || fail "campaign 4's job is not cancelled"
curl -fsS "$QUERY/api/v1/runs/$RUN_CANCELLED" | jq -e '[.events[].type] | index("RunCancelled") != null' >/dev/null \
  || fail "run $RUN_CANCELLED has no RunCancelled event"
say "campaign 4: cancelled; RunCancelled stored and the workload gone ${CANCEL_SECONDS}s after the cancel"

# ---------------------------------------------------------------------------------------------------- 5. the fleet page
curl -fsS "$QUERY/fleet" >"$WORK/fleet.html" || fail "GET /fleet"
fleet_json >"$WORK/fleet.json"
python3 - "$WORK/fleet.html" "$C1" "$C2" "$C3" "$C4" "$J2" "$RUN_KILLED" "$J3" "$RUN_FROZEN" "$J4" <<'PY' || fail "the fleet page lacks what the API shows"
import re, sys
html = open(sys.argv[1]).read()
c1, c2, c3, c4, j2, killed, j3, frozen, j4 = sys.argv[2:]
for c in (c1, c2, c3, c4):
    assert f'id="campaign-{c}"' in html, f"campaign {c} missing"
assert len(re.findall(r'<tr class="job"', html)) >= 9, "fewer than 9 job rows"
def row(job):
    r = html[html.index(f'id="job-{job}"'):]
    return r[:r.index("</tr>")]
for job, run in ((j2, killed), (j3, frozen)):
    assert f'/runs/{run}' in row(job) and "epoch 1: " in row(job) and "superseded" in row(job), f"run {run} not shown superseded"
assert "cancelled" in row(j4), "the cancelled job is not shown cancelled"
for agent in ("a1", "a2", "b1"):
    assert f'<td class="agent">{agent}</td>' in html, f"agent {agent} missing"
assert "<script" not in html
PY
grep -q 'http-equiv="refresh"' "$WORK/fleet.html" && fail "the fleet page still reloads itself with no job active"
online_count=$(jq -r .online "$WORK/fleet.json")
states=$(jq -r '[.campaigns[].states | to_entries[]] | group_by(.key) | map({key: .[0].key, value: (map(.value) | add)})
  | map(select(.value > 0) | "\(.value) \(.key)") | join(", ")' "$WORK/fleet.json")
if [ -n "${PODIUM_FLEET_OUT:-}" ]; then
  mkdir -p "$PODIUM_FLEET_OUT" && cp "$WORK/fleet.html" "$WORK/fleet.json" "$PODIUM_FLEET_OUT/"
fi

cat <<SUMMARY

[fleet-e2e] PASSED in $((SECONDS - STARTED_AT)) s (Kafka :$KAFKA_PORT, ingest :$INGEST_PORT, query :$QUERY_PORT, database $DB)
  campaign 1  3 points x 2 pools = 6 jobs, all done exactly once (lease epoch 1) in ${C1_SECONDS}s
              gpu-a: a1 ran $jobs_a1, a2 ran $jobs_a2, at the same time for ${overlap_seconds}s; gpu-b: b1 ran 3
              /fleet reloaded itself every 5 s meanwhile; /api/v1/fleet showed up to $MAX_ASSIGNED jobs assigned at once
              runs claimed $claims, granted and completed 6, with stored results $counted
              claim -> grant p50 ${CLAIM_GRANT_P50}s, max ${CLAIM_GRANT_MAX}s; grant -> RunStarted stored p50 ${GRANT_START_P50}s,
              max ${GRANT_START_MAX}s
  campaign 2  $VICTIM SIGKILLed mid-job; $SURVIVOR was granted the job (epoch 2) ${KILL_TO_REGRANT}s later (lease ${LEASE_SECONDS}s),
              done ${KILL_TO_DONE}s after the kill; 1 completed run of the job
              $VICTIM restarted with $late_pending journal entries pending: the killed run's stream went from $killed_events_before to
              $killed_events_after events and the run stays superseded
  campaign 3  $FROZEN SIGSTOPped mid-job; $OTHER was granted the job (epoch 2) ${FREEZE_TO_REGRANT}s later; after SIGCONT the
              frozen run reported late ($frozen_late: $frozen_events_before -> $frozen_events_after events) and stays superseded;
              1 completed run of the job
  campaign 4  cancelled while running on b1: RunCancelled and the workload gone after ${CANCEL_SECONDS}s (limit ${CANCEL_LIMIT}s)
  fleet page  $online_count agents online; jobs of the 4 campaigns: $states; no reload once nothing is active
SUMMARY
