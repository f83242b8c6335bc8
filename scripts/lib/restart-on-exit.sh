#!/usr/bin/env bash
# Runs a service and starts it again whenever it ends by itself: a JVM started with -XX:+ExitOnOutOfMemoryError exits
# (status 3) on a fatal error instead of limping on, and ingest (or an agent's daemon) then sets aside the record that
# caused it (see docs/SECURITY.md, "Bounded work"). TERM or INT stops it for good. Five exits in a row, each within 30 s of its start,
# mean it cannot start at all: it gives up, with the service's last status. Status 78 (EX_CONFIG: ingest refusing a
# master key that does not open the database's keys) is not started again at all: only its operator can fix that.
set -u
child=
stopping=0
stop() {
  stopping=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap stop TERM INT
quick=0
while :; do
  started=$SECONDS
  "$@" &
  child=$!
  status=0
  # a trapped signal ends `wait` early: wait again until the service itself has ended
  while kill -0 "$child" 2>/dev/null; do wait "$child"; status=$?; done
  [ "$stopping" -eq 1 ] && exit 0
  if [ "$status" -eq 78 ]; then
    echo "[restart-on-exit] $(date -u +%FT%TZ) exited with status 78 (its configuration cannot work); not starting it again"
    exit 78
  fi
  if [ $((SECONDS - started)) -lt 30 ]; then quick=$((quick + 1)); else quick=0; fi
  if [ "$quick" -ge 5 ]; then
    echo "[restart-on-exit] $(date -u +%FT%TZ) exited $quick times in a row within 30 s of starting (status $status); giving up"
    exit "$status"
  fi
  echo "[restart-on-exit] $(date -u +%FT%TZ) exited with status $status; starting it again"
  sleep 1
done
