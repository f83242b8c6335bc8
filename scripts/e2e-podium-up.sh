#!/usr/bin/env bash
# End-to-end check of `./podium up` as a new user meets it: on a clean clone of this repository, start Podium in the
# background, wait until the local page shows both the published devices and this machine's run, check that the run came
# the fleet way (the local agent online on /fleet, the sweep a campaign's jobs done by it), that its Kafka broker lets no
# one in anonymously and holds the agent's own Kafka user to its ACLs, and that an example campaign reaches the agent,
# then `./podium down` and check that no process and no port is left behind. Uses its own database
# and its own ports (18080, 18081, 19092 and 19093; PODIUM_E2E_QUERY_PORT, PODIUM_E2E_INGEST_PORT and
# PODIUM_E2E_KAFKA_PORT move them beside another run). PODIUM_E2E_PREBUILT=1 (set by ./podium test) takes the packages
# of the checkout it clones instead of building them again.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d /tmp/podium-e2e.XXXXXX)"
DB="podium_e2e_$(date +%s)_$$"
export PODIUM_QUERY_PORT=${PODIUM_E2E_QUERY_PORT:-18080} PODIUM_INGEST_PORT=${PODIUM_E2E_INGEST_PORT:-18081}
export PODIUM_KAFKA_PORT=${PODIUM_E2E_KAFKA_PORT:-19092}
export PODIUM_DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB" PODIUM_DB_USER=postgres PODIUM_DB_PASSWORD=""
PAGE="http://127.0.0.1:$PODIUM_QUERY_PORT/api/v1/local"
LIMIT_SECONDS=${PODIUM_E2E_LIMIT:-900}

say() { printf '[e2e] %s\n' "$*"; }
cleanup() {
  (cd "$WORK/podium" 2>/dev/null && ./podium down >/dev/null 2>&1) || true
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap "exit 1" INT TERM

say "cloning $SOURCE into $WORK/podium"
git clone -q "$SOURCE" "$WORK/podium"
# Under ./podium test the checkout was just built by `mvn verify` from these same sources (a clean clone in CI): its
# packages are what `./podium up` would build again first (build_if_missing), so they are taken instead of two more
# minutes of building. Only from a checkout with nothing uncommitted, whose packages are of the commit cloned.
if [ -n "${PODIUM_E2E_PREBUILT:-}" ] && [ -z "$(git -C "$SOURCE" status --porcelain)" ]; then
  for app in ingest-service/target/quarkus-app query-service/target/quarkus-app runner-agent/target/podium-agent.jar; do
    mkdir -p "$WORK/podium/$(dirname "$app")"
    cp -a "$SOURCE/$app" "$WORK/podium/$app"
  done
  say "taking the packages mvn verify just built in $SOURCE"
fi
psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $DB"

cd "$WORK/podium"
say "./podium up (log: $WORK/up.log)"
up_started=$SECONDS
setsid ./podium up >"$WORK/up.log" 2>&1 < /dev/null &
UP_PID=$!

deadline=$((SECONDS + LIMIT_SECONDS))
ok=0
while [ $SECONDS -lt $deadline ]; do
  if ! kill -0 "$UP_PID" 2>/dev/null; then
    say "./podium up exited early:"; cat "$WORK/up.log"; exit 1
  fi
  if json=$(curl -fsS "$PAGE" 2>/dev/null) && python3 - "$json" <<'PY'
import json, sys
page = json.loads(sys.argv[1])
published = {c["deviceId"] for c in page.get("published", [])}
local = [c for c in page.get("local", []) if sum(1 for p in c.get("points", []) if p.get("mean")) >= 3]
sys.exit(0 if {"intel-gaudi2", "nvidia-h100", "nvidia-a100-80gb"} <= published and local else 1)
PY
  then ok=1; break; fi
  sleep 5
done
if [ "$ok" -ne 1 ]; then
  say "the page did not show the published devices and the local run within $LIMIT_SECONDS s"
  cat "$WORK/up.log"; tail -n 50 .podium/logs/*.log || true
  exit 1
fi
say "the local page shows the published devices and this machine's run, $((SECONDS - up_started)) s after ./podium up"
# Read the whole page first: `curl | grep -q` fails under pipefail when grep stops reading early.
html=$(curl -fsS "http://127.0.0.1:$PODIUM_QUERY_PORT/local")
grep -q "Intel Gaudi 2" <<<"$html" || { say "the HTML page lacks the published devices"; exit 1; }

# The fleet path from the first minute: the local agent is a daemon online on /fleet, and the runs on the local page are
# the jobs of the sweep's campaign, each granted to that agent under a lease.
fleet=$(curl -fsS "http://127.0.0.1:$PODIUM_QUERY_PORT/api/v1/fleet")
local_page=$(curl -fsS "$PAGE")
python3 - "$fleet" "$local_page" <<'PY' || { say "/fleet does not show the local agent online and the sweep as its campaign"; exit 1; }
import json, sys
fleet, local = json.loads(sys.argv[1]), json.loads(sys.argv[2])
agents = [a for a in fleet["agents"] if a["pool"] == "local" and a["online"] and a["lastHeartbeatAt"]]
assert len(agents) == 1, "one local agent online: %s" % fleet["agents"]
agent = agents[0]["agentId"]
sweep = [c for c in fleet["campaigns"] if c["name"] == "reference sweep (podium up)"]
assert len(sweep) == 1, "one sweep campaign: %s" % [c["name"] for c in fleet["campaigns"]]
jobs = [j for p in sweep[0]["pools"] if p["pool"] == "local" for j in p["jobs"]]
assert sorted(j["parameters"]["dataloader_num_workers"] for j in jobs) == ["0", "1", "2"], jobs
assert all(j["state"] == "done" and j["agentId"] == agent and j["leaseEpoch"] >= 1 for j in jobs), jobs
runs = {r["runId"] for r in local["runs"]}
assert {j["runId"] for j in jobs} <= runs, "the campaign's runs %s are not the local page's %s" % (jobs, runs)
print("[e2e] /fleet: %s online in pool local; the sweep ran as campaign %s, jobs %s done by it"
      % (agent, sweep[0]["campaignId"], ", ".join(j["jobId"][-12:] for j in jobs)))
PY
grep -q 'class="badge badge-online">online' <<<"$(curl -fsS "http://127.0.0.1:$PODIUM_QUERY_PORT/fleet")" \
  || { say "the /fleet page does not mark the local agent online"; exit 1; }
grep -qE '1 of 1 agents? online' <<<"$(curl -fsS "http://127.0.0.1:$PODIUM_QUERY_PORT/")" \
  || { say "the home page does not count the local agent online"; exit 1; }
# The README's picture is taken from this page by a script: it must work on the platform as a newcomer has it.
scripts/readme-screenshot.sh "$WORK/readme.png" >/dev/null
[ "$(head -c 8 "$WORK/readme.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
  || { say "scripts/readme-screenshot.sh wrote no PNG"; exit 1; }

say "no secret on any command line, secret files mode 600, every port on 127.0.0.1"
args=$(ps -eo args)
for f in .podium/admin-token .podium/master-key .podium/query-db-password .podium/kafka-admin-password \
    .podium/kafka-ingest-password .podium/kafka/server.properties .podium/agent.key; do
  [ -f "$f" ] || continue
  [ "$(stat -c %a "$f")" = 600 ] || { say "$f is mode $(stat -c %a "$f"), not 600"; exit 1; }
  case $f in
    .podium/agent.key) values=$(sed -n 's/^key.secret=//p; s/^kafka.password=//p' "$f") ;;
    .podium/kafka/server.properties) values="" ;; # the admin password, checked as its own file
    *) values=$(cat "$f") ;;
  esac
  while read -r value; do
    [ -n "$value" ] || continue
    if grep -qF -- "$value" <<<"$args"; then say "the secret of $f is on a command line:"; grep -F -- "$value" <<<"$args" | cut -c1-200; exit 1; fi
  done <<<"$values"
done
listening=$(ss -Hltn 2>/dev/null | awk '{print $4}')
for port in $PODIUM_QUERY_PORT $PODIUM_INGEST_PORT $PODIUM_KAFKA_PORT $((PODIUM_KAFKA_PORT + 1)); do
  grep -qE "[:.]$port\$" <<<"$listening" || { say "nothing listens on port $port"; exit 1; }
  wide=$(grep -E "[:.]$port\$" <<<"$listening" | grep -vE "^(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]|\[::1\]):" || true)
  [ -z "$wide" ] || { say "port $port listens beyond 127.0.0.1: $wide"; exit 1; }
done
# ./podium up's broker lets no one in without a login, on its client and its controller port, and the local agent logs in
# as its key's own user (ingest made it at issue), which may write events and heartbeats and read jobs, nothing more.
say "Kafka: anonymous clients and a wrong password refused; the local agent's own user cannot delete topics or write jobs"
key_id=$(sed -n 's/^key.id=//p' .podium/agent.key)
[ "$(sed -n 's/^kafka.username=//p' .podium/agent.key)" = "$key_id" ] \
  || { say ".podium/agent.key has no Kafka login of the key's own user $key_id"; exit 1; }
scram_login() { # user password
  printf '%s\n' security.protocol=SASL_PLAINTEXT sasl.mechanism=SCRAM-SHA-512 \
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$1\" password=\"$2\";"
}
# Long enough for a SCRAM handshake on a loaded machine to end in its refusal; an anonymous client waits all of it.
timeouts=(request.timeout.ms=15000 default.api.timeout.ms=30000 max.block.ms=15000)
(umask 077
  printf '%s\n' "${timeouts[@]}" >"$WORK/anonymous.conf"
  { scram_login ingest not-its-password; printf '%s\n' "${timeouts[@]}"; } >"$WORK/wrong-password.conf"
  { scram_login "$key_id" "$(sed -n 's/^kafka.password=//p' .podium/agent.key)"; printf '%s\n' "${timeouts[@]}"; } \
    >"$WORK/agent.conf")
broker="127.0.0.1:$PODIUM_KAFKA_PORT"
probes=()
probe() { # name class args...: one of Kafka's tools, from the broker's jars, in the background
  local name=$1
  shift
  # the tool is meant to fail: its status is recorded, not an error of this script (set -e holds in the subshell too)
  (status=0
    java -XX:TieredStopAtLevel=1 -Dlog4j2.configurationFile=scripts/kafka/log4j2.yaml -cp ".podium/kafka/libs/*" "$@" \
      <<<"{}" >"$WORK/probe-$name.out" 2>&1 || status=$?
    echo "$status" >"$WORK/probe-$name.status") &
  probes+=("$!")
}
probe anonymous-admin org.apache.kafka.tools.TopicCommand --bootstrap-server "$broker" \
  --command-config "$WORK/anonymous.conf" --list
probe anonymous-producer org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$broker" --topic podium.events \
  --sync --producer.config "$WORK/anonymous.conf"
probe anonymous-controller org.apache.kafka.tools.MetadataQuorumCommand \
  --bootstrap-controller "127.0.0.1:$((PODIUM_KAFKA_PORT + 1))" --command-config "$WORK/anonymous.conf" describe --status
probe wrong-password org.apache.kafka.tools.TopicCommand --bootstrap-server "$broker" \
  --command-config "$WORK/wrong-password.conf" --list
probe agent-deletes-events org.apache.kafka.tools.TopicCommand --bootstrap-server "$broker" \
  --command-config "$WORK/agent.conf" --delete --topic podium.events
probe agent-writes-jobs org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$broker" --topic podium.jobs \
  --sync --producer.config "$WORK/agent.conf"
wait "${probes[@]}" # not ./podium up, which runs on
refused() { # name what error-pattern: the probe failed with that error
  if [ "$(cat "$WORK/probe-$1.status")" = 0 ] || ! grep -qE "$3" "$WORK/probe-$1.out"; then
    say "$2 was not refused as expected ($3):"; tail -n 20 "$WORK/probe-$1.out"; exit 1
  fi
}
# A client without SASL speaks to a SASL listener before logging in: the broker drops the connection, so it never
# learns of a node to ask.
refused anonymous-admin "an anonymous admin client" 'Timed out waiting for a node assignment'
refused anonymous-producer "an anonymous producer" 'not present in metadata'
refused anonymous-controller "an anonymous client of the controller port" 'Timed out waiting for a node assignment'
refused wrong-password "ingest's user with a wrong password" 'SaslAuthenticationException|failed authentication'
refused agent-deletes-events "deleting podium.events as the local agent" 'TopicAuthorizationException|ClusterAuthorizationException|Not authorized'
refused agent-writes-jobs "writing podium.jobs as the local agent" 'TopicAuthorizationException'
# No internals on the public site: query-service's metrics are on its management port only.
metrics=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PODIUM_QUERY_PORT/q/metrics")
[ "$metrics" = 404 ] || { say "/q/metrics on query-service's public port answered $metrics, not 404"; exit 1; }

# An example campaign submitted as the README says, without --pools, reaches the local agent: /fleet shows it as the
# agent's current job while it runs, then every job done.
say "podium-admin campaign submit examples/campaigns/fleet-sweep.yaml"
submitted=$(PODIUM_ADMIN_URL="http://127.0.0.1:$PODIUM_INGEST_PORT" PODIUM_ADMIN_TOKEN="$(cat .podium/admin-token)" \
  ingest-service/podium-admin campaign submit examples/campaigns/fleet-sweep.yaml)
campaign=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["campaign_id"])' "$submitted")
fleet_state() { # campaign-id: "current" once the local agent runs one of its jobs, "done" once all are done
  python3 - "$(curl -fsS "http://127.0.0.1:$PODIUM_QUERY_PORT/api/v1/fleet")" "$1" <<'PY'
import json, sys
fleet, campaign = json.loads(sys.argv[1]), sys.argv[2]
jobs = [j for c in fleet["campaigns"] if c["campaignId"] == campaign for p in c["pools"] for j in p["jobs"]]
current = {a["currentJobId"] for a in fleet["agents"] if a["pool"] == "local" and a["online"]}
print("done" if jobs and all(j["state"] == "done" for j in jobs) else
      "current" if current & {j["jobId"] for j in jobs} else "waiting")
PY
}
seen_current=0
deadline=$((SECONDS + 120))
while state=$(fleet_state "$campaign") && [ "$state" != done ]; do
  [ "$state" = current ] && seen_current=1
  [ $SECONDS -lt $deadline ] || { say "campaign $campaign was not done by the local agent within 120 s"; exit 1; }
  sleep 0.5
done
[ "$seen_current" -eq 1 ] || { say "/fleet never showed a job of campaign $campaign as the local agent's current job"; exit 1; }
say "campaign $campaign (pool local by default): /fleet showed its job as the agent's current job, then all 3 done"

# While the platform is up: every shipped workload class through the agent, Kafka and ingest onto the pages.
"$SOURCE/scripts/e2e-workloads.sh" "$WORK/podium" "http://127.0.0.1:$PODIUM_QUERY_PORT" "127.0.0.1:$PODIUM_KAFKA_PORT"
"$SOURCE/scripts/e2e-claims.sh" "$WORK/podium" "http://127.0.0.1:$PODIUM_QUERY_PORT" \
  "http://127.0.0.1:$PODIUM_INGEST_PORT"

say "./podium down"
./podium down
# `./podium up` must notice that its services were stopped from another terminal and exit by itself, and say so.
for _ in $(seq 1 20); do kill -0 "$UP_PID" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$UP_PID" 2>/dev/null; then
  say "./podium up kept running after ./podium down"; kill "$UP_PID" 2>/dev/null || true; exit 1
fi
up_status=0
wait "$UP_PID" || up_status=$?
if [ "$up_status" -ne 0 ] || ! grep -q "stopped by ./podium down" "$WORK/up.log"; then
  say "./podium up exited $up_status, not as stopped by ./podium down:"; tail -n 5 "$WORK/up.log"; exit 1
fi
# Nothing of the clone may run on: no process that names it or runs in it (this script leaves it first).
nothing_left() {
  local here=$PWD left=""
  cd /
  for pid in $(ps -e -o pid=); do
    [ "$pid" = $$ ] && continue
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null || true)
    args=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" || true)
    if [[ "$cwd" == "$WORK/podium"* || "$args" == *"$WORK/podium"* ]]; then left+="$pid ($cwd) $args"$'\n'; fi
  done
  [ -z "$left" ] || { say "processes left behind:"; printf '%s' "$left"; exit 1; }
  for port in $PODIUM_QUERY_PORT $PODIUM_INGEST_PORT $PODIUM_KAFKA_PORT $((PODIUM_KAFKA_PORT + 1)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then say "port $port is still open"; exit 1; fi
  done
  cd "$here"
}
nothing_left
say "nothing left running, every port free"

# The same database under another master key (.podium/ lost, or a fresh clone beside the database an earlier one left):
# ./podium up must stop by itself, say what happened and what to do, and leave nothing running and the database whole.
mv .podium/master-key "$WORK/master-key.first"
events_before=$(psql -h 127.0.0.1 -U postgres -d "$DB" -tAc "SELECT count(*) FROM event_store")
say "./podium up again with another master key (log: $WORK/up-sealed.log)"
sealed_status=0
timeout 300 ./podium up >"$WORK/up-sealed.log" 2>&1 </dev/null || sealed_status=$?
if [ "$sealed_status" -eq 0 ] || [ "$sealed_status" -eq 124 ] \
    || ! grep -q "ingest refuses to start: .* do not decrypt under the configured master key" "$WORK/up-sealed.log" \
    || ! grep -q "Restore the master key" "$WORK/up-sealed.log"; then
  say "./podium up on a database sealed under another key exited $sealed_status without saying why:"
  tail -n 20 "$WORK/up-sealed.log"; exit 1
fi
nothing_left
events_after=$(psql -h 127.0.0.1 -U postgres -d "$DB" -tAc "SELECT count(*) FROM event_store")
[ "$events_after" = "$events_before" ] || { say "the refused start changed the event store: $events_before -> $events_after"; exit 1; }
say "passed: a start under another master key stopped with its reason ($(grep -m1 -o 'ingest refuses to start: [^(]*' "$WORK/up-sealed.log")...), nothing left running, the database untouched"
