#!/usr/bin/env bash
# Podium's benchmarks, each beside its baseline in the same run (docs/PERFORMANCE.md). Run through ./podium bench:
#   ./podium bench ingest [--events N] [--rates 0.25,0.5,0.75] [--seconds S] [--lag-warmup S] [--keys K]
#   ./podium bench replay [--events N]            (the issue's size: --events 1000000)
#   ./podium bench agent-overhead [--pairs N] [--steps S]   (20 pairs by default)
#   ./podium bench pages [--results 1000000] [--live RATE] [--load-only] [--seconds 20] [--clients 4] [...]
#   ./podium bench pages --against DIR [--seconds 30] [--warmup 20]   (query-service in DIR as A, this build as B)
#   ./podium bench all                            (the four, one report)
# pages keeps its loaded cluster in $PODIUM_BENCH_PAGES_DATA (default /var/tmp/podium-bench-pages) and reloads it only
# when --results changes; its ports are 29084-29085 (ingest, query), 29094-29095 (Kafka), 29433 (PostgreSQL).
# ingest and replay start what they measure on ports 29000-29999 and remove it afterwards: a private PostgreSQL 15
# cluster (initdb, track_commit_timestamp=on, otherwise default settings, like the shared server), a KRaft broker from
# the Kafka jars, and ingest-service from its build. The shared PostgreSQL server is never restarted or reconfigured.
# Environment: PODIUM_BENCH_PROFILE=1 records ingest-service (and, for pages, each query-service start) with JFR
# (profile settings) into .podium/bench/*.jfr and
# prints the statements that took the private server's time (pg_stat_statements) at the end.
# PODIUM_BENCH_INGEST_APP=DIR measures another build of ingest-service (its target/quarkus-app), e.g. of an older commit.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../scripts/lib/platform.sh
. "$ROOT/scripts/lib/platform.sh"
OUT="$ROOT/.podium/bench"
PG_BIN=/usr/lib/postgresql/15/bin
PG_PORT=29432
KAFKA_PORT=29092
INGEST_PORT=29081
REPLAY_PORT=29082
TOKEN="bench-$(head -c 24 /dev/urandom | base64 | tr -d "/+=\n")"
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
STAMP="$(date -u +%Y-%m-%dT%H%M%SZ)"
SCRATCH=""
PG_DIR=""
PIDS=()
PG_LOGGING="-c log_checkpoints=on -c log_autovacuum_min_duration=0 -c log_min_duration_statement=200"

say() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }
fail() { printf '\033[1;31m[bench] %s\033[0m\n' "$*" >&2; exit 1; }

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  PIDS=()
  if [ -n "$PG_DIR" ] && [ -d "$PG_DIR" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR" -m fast -w stop >/dev/null 2>&1 || true
  fi
  # The server's log (checkpoints, autovacuum runs, statements over 200 ms) is kept to explain a stall in the lag.
  if [ -n "$PG_DIR" ] && [ -f "$PG_DIR/server.log" ]; then cp "$PG_DIR/server.log" "$OUT/postgres-$STAMP.log"; fi
  PG_DIR=""
  if [ -n "$SCRATCH" ]; then rm -rf "$SCRATCH"; SCRATCH=""; fi
}
trap cleanup EXIT INT TERM


wait_for_url() { # url seconds name log
  for _ in $(seq 1 "$2"); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 1; done
  tail -n 40 "$4" >&2 || true
  fail "$3 was not ready at $1 within $2 s (log: $4)"
}

build() {
  if [ ! -f "$ROOT/ingest-service/target/quarkus-app/quarkus-run.jar" ] || [ ! -f "$ROOT/bench/target/podium-bench.jar" ] \
     || [ ! -f "$ROOT/runner-agent/target/podium-agent.jar" ] || [ ! -f "$ROOT/query-service/target/quarkus-app/quarkus-run.jar" ] \
     || [ -n "${PODIUM_BENCH_BUILD:-}" ]; then
    say "building ingest-service, query-service, runner-agent and the bench commands (tests skipped)"
    (cd "$ROOT" && mvn -B -q -pl ingest-service,query-service,runner-agent,bench -am package -DskipTests) >"$OUT/build.log" 2>&1 \
      || fail "the build failed; see $OUT/build.log"
  fi
}

bench_java() { java -Xmx2g -jar "$ROOT/bench/target/podium-bench.jar" "$@"; }

scratch() {
  SCRATCH="$(mktemp -d /tmp/podium-bench.XXXXXX)"
  chmod 755 "$SCRATCH"
}

# A private PostgreSQL 15 cluster with track_commit_timestamp=on (the shared server is not ours to restart), in
# $SCRATCH/pg or the directory given (created by initdb when it holds no cluster yet).
start_postgres() { # [data directory]
  # Checked before PG_DIR is set: refused here, cleanup must not stop the cluster another bench is running there.
  platform_port_in_use "$PG_PORT" && fail "port $PG_PORT is in use"
  PG_DIR="${1:-$SCRATCH/pg}"
  mkdir -p "$PG_DIR" && chown postgres: "$PG_DIR"
  local preload="" setting settings=""
  [ -n "${PODIUM_BENCH_PROFILE:-}" ] && preload="-c shared_preload_libraries=pg_stat_statements"
  for setting in ${PODIUM_BENCH_PG_SETTINGS:-}; do
    [[ "$setting" =~ ^[a-z_]+=[A-Za-z0-9.]+$ ]] || fail "PODIUM_BENCH_PG_SETTINGS: '$setting' is not name=value"
    settings="$settings -c $setting"
  done
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR" -A trust -U postgres >"$OUT/pg-initdb.log" 2>&1 \
      || fail "initdb failed; see $OUT/pg-initdb.log"
  fi
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_DIR -c track_commit_timestamp=on $PG_LOGGING $preload$settings" start >/dev/null \
    || fail "the private PostgreSQL did not start; see $PG_DIR/server.log"
  say "private PostgreSQL 15 on 127.0.0.1:$PG_PORT (track_commit_timestamp=on${PODIUM_BENCH_PG_SETTINGS:+ $PODIUM_BENCH_PG_SETTINGS})"
}

create_db() {
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE $1" >/dev/null
  if [ -n "${PODIUM_BENCH_PROFILE:-}" ]; then
    psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d "$1" -qc "CREATE EXTENSION pg_stat_statements" >/dev/null
  fi
}

# With PODIUM_BENCH_PROFILE: where the server's time went in one database.
top_statements() { # database
  [ -n "${PODIUM_BENCH_PROFILE:-}" ] || return 0
  echo "statements in $1 by total time (pg_stat_statements):"
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d "$1" -P pager=off -c "SELECT round(s.total_exec_time) AS ms,
      s.calls, s.rows, left(regexp_replace(s.query, '\s+', ' ', 'g'), 110) AS statement
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$1'
    ORDER BY s.total_exec_time DESC LIMIT 15"
}

start_kafka() {
  local libs dir="$SCRATCH/kafka"
  [ -f "$ROOT/.podium/kafka/libs/.complete" ] || say "fetching the Kafka broker's jars"
  libs=$(platform_kafka_libs "$ROOT/.podium/kafka/libs" "$OUT/kafka-fetch.log") \
    || fail "could not fetch Kafka's jars; see $OUT/kafka-fetch.log"
  platform_port_in_use "$KAFKA_PORT" && fail "port $KAFKA_PORT is in use"
  : >"$OUT/kafka.log"
  platform_kafka_configure "$dir" "$KAFKA_PORT"
  platform_kafka_format "$dir" "$libs" "$OUT/kafka.log" || fail "could not format Kafka's storage; see $OUT/kafka.log"
  platform_kafka_command "$dir" "$libs" 512m
  "${PLATFORM_KAFKA_COMMAND[@]}" >>"$OUT/kafka.log" 2>&1 &
  PIDS+=($!)
  platform_wait_for_port "$KAFKA_PORT" 60 || fail "Kafka did not listen on $KAFKA_PORT; see $OUT/kafka.log"
  say "Kafka (KRaft) on 127.0.0.1:$KAFKA_PORT"
}

start_ingest() { # port database log [extra -D options...]
  local port=$1 db=$2 log=$3; shift 3
  local jfr=()
  if [ -n "${PODIUM_BENCH_PROFILE:-}" ]; then
    jfr=("-XX:StartFlightRecording=filename=$OUT/$(basename "$log" .log)-$STAMP.jfr,settings=profile,dumponexit=true")
  fi
  # POST /admin/rebuild answers when the swap is done: on a loaded machine a rebuild of millions of events outlasts
  # the HTTP server's default idle timeout (30 min), which would close the request's connection.
  PODIUM_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/$db" PODIUM_MASTER_KEY="$MASTER_KEY" \
    java -Xmx1g "${jfr[@]}" -Dquarkus.http.port="$port" -Dpodium.ingest.bootstrap-servers="127.0.0.1:$KAFKA_PORT" \
    -Dpodium.admin.tokens.bench="$TOKEN" -Dquarkus.log.level=WARN -Dquarkus.http.idle-timeout=4H "$@" \
    -jar "${PODIUM_BENCH_INGEST_APP:-$ROOT/ingest-service/target/quarkus-app}/quarkus-run.jar" >"$log" 2>&1 &
  PIDS+=($!)
  # A kept data set may have migrations to apply first (V85 fills a table from 1,000,000 results in about 90 s).
  wait_for_url "http://127.0.0.1:$port/q/health/ready" 900 ingest-service "$log"
}

stop_all() { cleanup; }

machine() {
  local cpu; cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
  echo "machine: $(nproc) cores ($cpu), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM," \
    "$(uname -sr), $(java -version 2>&1 | head -n 1), PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}')"
}

bench_ingest() { # report args...
  local report=$1; shift
  scratch; start_postgres; start_kafka
  create_db podium_bench_ingest; create_db podium_bench_ingest_baseline
  start_ingest "$INGEST_PORT" podium_bench_ingest "$OUT/ingest-service.log"
  local issued; issued=$(curl -fsS -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d '{"agent_id":"bench-agent"}' "http://127.0.0.1:$INGEST_PORT/admin/agents")
  say "measuring ingest (baseline first, then the broker path)"
  bench_java ingest --bootstrap "127.0.0.1:$KAFKA_PORT" \
    --jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/podium_bench_ingest" \
    --baseline-jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/podium_bench_ingest_baseline" \
    --key-id "$(jq -r .key_id <<<"$issued")" --secret "$(jq -r .secret <<<"$issued")" --report "$report" "$@"
  top_statements podium_bench_ingest
  top_statements podium_bench_ingest_baseline
  stop_all
}

bench_replay() { # report args...
  local report=$1; shift
  scratch; start_postgres; start_kafka
  create_db podium_bench_replay
  say "storing the events to replay"
  bench_java replay-load --jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/podium_bench_replay" "$@"
  start_ingest "$REPLAY_PORT" podium_bench_replay "$OUT/replay-service.log" \
    -Dpodium.ingest.consumer.enabled=false -Dpodium.ingest.jobs.enabled=false
  say "replaying"
  local last; last=$(ls -t "$OUT"/ingest-*.txt 2>/dev/null | head -n 1 || true)
  bench_java replay --url "http://127.0.0.1:$REPLAY_PORT" --token "$TOKEN" \
    --jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/podium_bench_replay" ${last:+--ingest-report "$last"} \
    --report "$report"
  top_statements podium_bench_replay
  stop_all
}

bench_agent() { # report args...
  local report=$1; shift
  local work; work="$(mktemp -d /tmp/podium-bench-agent.XXXXXX)"
  bench_java agent-overhead --agent "$ROOT/runner-agent/podium-agent" --python "${PODIUM_PYTHON:-/usr/bin/python3}" \
    --work "$work" --report "$report" "$@"
  rm -rf "$work"
}

# The page benchmark's cluster is kept between runs (loading 1,000,000 results takes minutes, 10,000,000 about an
# hour): $PAGES_DATA/pg, with the admin token, master key and agent key it was loaded with in $PAGES_DATA/bench.env.
bench_pages() { # report args...
  local report=$1; shift
  local results=1000000 live=0 load_only="" against="" args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --results) results=$2; shift 2 ;;
      --against) against=$2; shift 2 ;;
      --live) live=$2; shift 2 ;;
      --load-only) load_only=1; shift ;;
      *) args+=("$1"); shift ;;
    esac
  done
  PG_PORT=29433; KAFKA_PORT=29094; INGEST_PORT=29084
  local query_port=29085 data="${PODIUM_BENCH_PAGES_DATA:-/var/tmp/podium-bench-pages}"
  local db_url="jdbc:postgresql://127.0.0.1:$PG_PORT/podium_bench_pages"
  if [ "$(cat "$data/loaded" 2>/dev/null || true)" != "$results" ]; then
    say "loading $results results into a new cluster in $data"
    rm -rf "$data"; mkdir -p "$data"; chmod 755 "$data"
    printf 'TOKEN=%q\nMASTER_KEY=%q\n' "$TOKEN" "$MASTER_KEY" >"$data/bench.env"
  else
    say "reusing the $results results loaded in $data (delete it to reload)"
  fi
  # shellcheck disable=SC1091
  . "$data/bench.env"
  scratch; start_postgres "$data/pg"; start_kafka
  [ -f "$data/loaded" ] || create_db podium_bench_pages
  start_ingest "$INGEST_PORT" podium_bench_pages "$OUT/pages-ingest-service.log"
  if [ -z "${KEY_ID:-}" ]; then
    local issued; issued=$(curl -fsS -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
      -d '{"agent_id":"bench-agent"}' "http://127.0.0.1:$INGEST_PORT/admin/agents")
    KEY_ID=$(jq -r .key_id <<<"$issued"); SECRET=$(jq -r .secret <<<"$issued")
    printf 'KEY_ID=%q\nSECRET=%q\n' "$KEY_ID" "$SECRET" >>"$data/bench.env"
  fi
  chmod 600 "$data/bench.env"
  local agent=(--ingest "http://127.0.0.1:$INGEST_PORT" --token "$TOKEN" --agent bench-agent --key-id "$KEY_ID" \
    --secret "$SECRET" --results "$results" --report "$report")
  if [ ! -f "$data/loaded" ]; then
    bench_java pages-load --jdbc "$db_url" "${agent[@]}"
    echo "$results" >"$data/loaded"
  fi
  if [ -n "$against" ]; then
    bench_java pages-ab "${agent[@]}" --jar-a "$against/quarkus-run.jar" \
      --jar-b "$ROOT/query-service/target/quarkus-app/quarkus-run.jar" --query-db "$db_url" --logs "$OUT" "${args[@]}"
  elif [ -z "$load_only" ]; then
    [ -n "${PODIUM_BENCH_PROFILE:-}" ] && export PODIUM_BENCH_QUERY_JFR="$OUT"
    bench_java pages "${agent[@]}" --bootstrap "127.0.0.1:$KAFKA_PORT" --live "$live" \
      --query-jar "$ROOT/query-service/target/quarkus-app/quarkus-run.jar" --query-db "$db_url" --query-port "$query_port" \
      --pg-pid "$(head -n 1 "$data/pg/postmaster.pid")" --logs "$OUT" "${args[@]}"
  fi
  stop_all
}

main() {
  local name=${1:-}; shift || true
  mkdir -p "$OUT"
  case "$name" in
    ingest|replay|agent-overhead|pages) ;;
    all) ;;
    *) fail "usage: ./podium bench ingest|replay|agent-overhead|pages|all [options]" ;;
  esac
  build
  local report="$OUT/$name-$STAMP.txt"
  { echo "podium bench $name $* ($STAMP)"; machine
    echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)${PODIUM_BENCH_INGEST_APP:+, ingest-service from $PODIUM_BENCH_INGEST_APP}"
    echo "private PostgreSQL settings: ${PODIUM_BENCH_PG_SETTINGS:-defaults} (plus track_commit_timestamp=on)"
  } | tee "$report"
  case "$name" in
    ingest) bench_ingest "$report" "$@" ;;
    replay) bench_replay "$report" "$@" ;;
    agent-overhead) bench_agent "$report" "$@" ;;
    pages) bench_pages "$report" "$@" ;;
    all)
      cp "$report" "$OUT/ingest-$STAMP.txt"
      bench_ingest "$OUT/ingest-$STAMP.txt"
      bench_replay "$OUT/replay-$STAMP.txt"
      bench_agent "$OUT/agent-overhead-$STAMP.txt"
      bench_pages "$OUT/pages-$STAMP.txt"
      { for part in ingest replay agent-overhead pages; do grep -v '^machine:\|^podium bench' \
          "$OUT/$part-$STAMP.txt" || true; done; } >>"$report"
      echo; say "combined report: $report"; cat "$report" ;;
  esac
  say "report: $report"
}

main "$@"
