#!/bin/sh
# Runs once, when the postgres container initialises its data directory: creates query-service's read-only role with
# its password, before ingest-service migrates (migration V60 then grants it SELECT and nothing else).
set -eu
psql -v ON_ERROR_STOP=1 -v pw="$PODIUM_QUERY_DB_PASSWORD" --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE podium_query LOGIN PASSWORD :'pw';
SQL
