#!/bin/sh
# Creates the SCRAM user ingest (password from PODIUM_KAFKA_INGEST_PASSWORD) and applies acls.conf, as the super user,
# against BOOTSTRAP (default kafka:9092). docker-compose.yml's kafka-init runs it once the broker is healthy; running it
# again changes nothing. Agents get their users from ingest, one per key, when their keys are issued.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bootstrap=${1:-kafka:9092}
admin() { sh "$here/kafka-admin.sh" "$@"; }

admin kafka-configs.sh --bootstrap-server "$bootstrap" --alter --entity-type users --entity-name ingest \
  --add-config "SCRAM-SHA-512=[iterations=8192,password=${PODIUM_KAFKA_INGEST_PASSWORD:?}]"

grep -v '^[[:space:]]*#' "$here/acls.conf" | while read -r principal operation resource pattern name; do
  [ -n "$principal" ] || continue
  case $resource in
    TOPIC) target="--topic $name" ;;
    GROUP) target="--group $name" ;;
    CLUSTER) target="--cluster" ;;
    *) echo "acls.conf: unknown resource type $resource" >&2; exit 1 ;;
  esac
  # shellcheck disable=SC2086 # $target is two words on purpose
  admin kafka-acls.sh --bootstrap-server "$bootstrap" --add --allow-principal "$principal" --operation "$operation" \
    $target --resource-pattern-type "$pattern"
done
echo "SCRAM user ingest and ACLs applied from $here/acls.conf"
