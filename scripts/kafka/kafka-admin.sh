#!/bin/sh
# Runs one of Kafka's CLI tools as the broker's super user (SASL/PLAIN, password from PODIUM_KAFKA_ADMIN_PASSWORD), inside
# the kafka containers of docker-compose.yml:  kafka-admin.sh kafka-topics.sh --bootstrap-server kafka:9092 --list
set -eu
tool=$1
shift
conf=$(mktemp)
printf '%s\n' 'security.protocol=SASL_PLAINTEXT' 'sasl.mechanism=PLAIN' \
  "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"${PODIUM_KAFKA_ADMIN_PASSWORD}\";" \
  >"$conf"
status=0
"${KAFKA_BIN:-/opt/kafka/bin}/$tool" "$@" --command-config "$conf" || status=$?
rm -f "$conf"
exit "$status"
