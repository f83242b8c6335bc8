#!/usr/bin/env bash
# Writes .env beside docker-compose.yml with a fresh random value for every secret compose needs (mode 600), unless
# .env exists. docker compose refuses to start without these; there are no defaults.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -e .env ] && { echo ".env exists; leaving it alone" >&2; exit 0; }
rand() { head -c "$1" /dev/urandom | base64 | tr -d '/+=\n'; }
umask 077
cat >.env <<ENV
PODIUM_MASTER_KEY=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
PODIUM_ADMIN_TOKEN=$(rand 32)
POSTGRES_PASSWORD=$(rand 24)
PODIUM_QUERY_DB_PASSWORD=$(rand 24)
PODIUM_KAFKA_ADMIN_PASSWORD=$(rand 24)
PODIUM_KAFKA_INGEST_PASSWORD=$(rand 24)
ENV
echo "wrote .env (mode 600)" >&2
