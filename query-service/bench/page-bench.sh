#!/usr/bin/env bash
# The page benchmark: 1,000,000 results over 50 devices and 20 benchmarks, then p50/p99 latency and throughput of the
# leaderboard and comparison pages beside a trivial page (/keys/{id}: one primary-key lookup in the same layout), with a
# random URL per request. Not a test: run it by hand. Needs the PostgreSQL server at 127.0.0.1:5432 (user postgres, trust).
#   query-service/bench/page-bench.sh [seconds per phase, default 20] [clients for the throughput phase, default 4]
# The database podium_bench stays afterwards (drop it by hand); PODIUM_BENCH_REUSE=1 measures it again without reloading.
# PODIUM_BENCH_CLIENT=jdk drives the pages with the JDK's HTTP client instead of the lean keep-alive one (see PageBenchmark).
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER_PHASE="${1:-20}"
CLIENTS="${2:-4}"
DB=podium_bench
PORT=8089
# package, not install: the local repository may be shared, and the reactor resolves our own modules without it
mvn -q -B -pl query-service -am package org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -DskipTests -DskipITs \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
CP="query-service/target/test-classes:query-service/target/classes:$(cat query-service/target/bench.classpath)"
if [ -z "${PODIUM_BENCH_REUSE:-}" ]; then   # PODIUM_BENCH_REUSE=1 keeps the database of the last run
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  java -cp "$CP" dev.podium.query.bench.PageBenchmark load --jdbc "jdbc:postgresql://127.0.0.1:5432/$DB"
  # Autovacuum would otherwise work through the million fresh rows during the first phases, slowing whatever queries the
  # database (the trivial page) and not what is served from the cache: the ratios would flatter the other pages.
  psql -h 127.0.0.1 -U postgres -d "$DB" -qc "VACUUM (ANALYZE)"
fi
PODIUM_DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB" java -Dquarkus.http.port=$PORT -Dquarkus.log.level=WARN -Dquarkus.log.category.\"dev.podium\".level=INFO \
  -jar query-service/target/quarkus-app/quarkus-run.jar > query-service/target/bench-service.log 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$PORT/q/health/ready" > /dev/null && break; sleep 1; done
# The service reads each benchmark's read models into its cache at start (CacheWarmer); measure once that is done.
for _ in $(seq 1 180); do grep -q "read models of .* benchmarks cached" query-service/target/bench-service.log && break; sleep 1; done
java -cp "$CP" dev.podium.query.bench.PageBenchmark measure --jdbc "jdbc:postgresql://127.0.0.1:5432/$DB" \
  --url "http://127.0.0.1:$PORT" --seconds "$SECONDS_PER_PHASE" --clients "$CLIENTS" --client "${PODIUM_BENCH_CLIENT:-socket}"
