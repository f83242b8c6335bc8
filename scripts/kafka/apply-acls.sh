#!/bin/sh
# Creates the SCRAM user ingest (password from PODIUM_KAFKA_INGEST_PASSWORD) and applies acls.conf, as the super user,
# against BOOTSTRAP (default kafka:9092). docker-compose.yml's kafka-init runs it once the broker is healthy, and
# ./podium up once per broker data directory (with KAFKA_LIBS, see kafka-admin.sh); running it again changes nothing.
# Agents get their users from ingest, one per key, when their keys are issued.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bootstrap=${1:-kafka:9092}
admin() { sh "$here/kafka-admin.sh" "$@"; }

# The password goes in a file, not on a command line (any local user can read those); in a file the mechanism's
# settings take no brackets.
scram=$(mktemp)
trap 'rm -f "$scram"' EXIT
printf 'SCRAM-SHA-512=iterations=8192,password=%s\n' "${PODIUM_KAFKA_INGEST_PASSWORD:?}" >"$scram"

# Each tool call is a JVM start of a few seconds: the credential and one kafka-acls.sh per resource (the operations of
# consecutive lines on the same principal and resource go together) run side by side.
pids=
background() { "$@" & pids="$pids $!"; }

background admin kafka-configs.sh --bootstrap-server "$bootstrap" --alter --entity-type users --entity-name ingest \
  --add-config-file "$scram"

apply() { # principal resource pattern name operations... (sh has no locals: these names are apply's alone)
  a_principal=$1 a_resource=$2 a_pattern=$3 a_name=$4
  shift 4
  case $a_resource in
    TOPIC) a_target="--topic $a_name" ;;
    GROUP) a_target="--group $a_name" ;;
    CLUSTER) a_target="--cluster" ;;
    *) echo "acls.conf: unknown resource type $a_resource" >&2; exit 1 ;;
  esac
  a_ops=
  for a_op in "$@"; do
    # kafka-acls.sh names operations as Kafka's AclOperation does, less the underscores: ALTER_CONFIGS is AlterConfigs
    a_ops="$a_ops --operation $(echo "$a_op" | awk -F_ '{ for (i = 1; i <= NF; i++) printf "%s%s", substr($i, 1, 1), tolower(substr($i, 2)) }')"
  done
  # shellcheck disable=SC2086 # $a_target and $a_ops are several words on purpose
  background admin kafka-acls.sh --bootstrap-server "$bootstrap" --add --allow-principal "$a_principal" $a_ops \
    $a_target --resource-pattern-type "$a_pattern"
}
group= operations=
while read -r principal operation resource pattern name; do
  [ -n "$principal" ] || continue
  if [ "$principal $resource $pattern $name" != "$group" ] && [ -n "$group" ]; then
    # shellcheck disable=SC2086
    apply $group $operations
    operations=
  fi
  group="$principal $resource $pattern $name"
  operations="$operations $operation"
done <<ACLS
$(grep -v '^[[:space:]]*#' "$here/acls.conf")
ACLS
# shellcheck disable=SC2086
if [ -n "$group" ]; then apply $group $operations; fi

failed=0
for pid in $pids; do wait "$pid" || failed=1; done
[ "$failed" -eq 0 ] || { echo "creating the SCRAM user ingest or an ACL of $here/acls.conf failed (above)" >&2; exit 1; }
echo "SCRAM user ingest and ACLs applied from $here/acls.conf"
