#!/bin/sh
# Runs one of Kafka's CLI tools as the broker's super user (SASL/PLAIN, password from PODIUM_KAFKA_ADMIN_PASSWORD):
#   kafka-admin.sh kafka-topics.sh --bootstrap-server kafka:9092 --list
# Inside docker-compose.yml's kafka containers the tools are the image's scripts under KAFKA_BIN (/opt/kafka/bin); with
# KAFKA_LIBS set (./podium up: the broker's jars under .podium/kafka/libs) the same tool runs from those jars.
set -eu
tool=$1
shift
conf=$(mktemp)
trap 'rm -f "$conf"' EXIT
printf '%s\n' 'security.protocol=SASL_PLAINTEXT' 'sasl.mechanism=PLAIN' \
  "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"${PODIUM_KAFKA_ADMIN_PASSWORD}\";" \
  >"$conf"
if [ -z "${KAFKA_LIBS:-}" ]; then
  "${KAFKA_BIN:-/opt/kafka/bin}/$tool" "$@" --command-config "$conf"
  exit
fi
case $tool in
  kafka-configs.sh) class=kafka.admin.ConfigCommand ;;
  kafka-acls.sh) class=org.apache.kafka.tools.AclCommand ;;
  kafka-topics.sh) class=org.apache.kafka.tools.TopicCommand ;;
  kafka-broker-api-versions.sh) class=org.apache.kafka.tools.BrokerApiVersionsCommand ;;
  *) echo "kafka-admin.sh: no class known for $tool" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# A short-lived client: the quick compiler tier starts it in about half the time.
java -Xmx256m -XX:TieredStopAtLevel=1 -Xshare:auto -Dlog4j2.configurationFile="$here/log4j2.yaml" \
  -cp "$KAFKA_LIBS/*" "$class" "$@" --command-config "$conf"
