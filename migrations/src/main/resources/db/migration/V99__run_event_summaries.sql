-- A run page lists its run's events from these rows instead of reading event_store payloads (up to 1 MiB each, which
-- PostgreSQL detoasts whole even to cut them). Ingest's RunEventProjection writes one row per run event in the event's
-- own transaction: the envelope's columns as the event store holds them and a one-line summary of the payload computed
-- from the decoded event, and counts the rows per run, so a page reads a bounded prefix and the total by key.
CREATE TABLE proj_run_event (
    run_id         UUID        NOT NULL,
    seq            BIGINT      NOT NULL,
    position       BIGINT      NOT NULL,
    type           TEXT        NOT NULL,
    schema_version INT         NOT NULL,
    writer         TEXT        NOT NULL,
    occurred_at    TIMESTAMPTZ NOT NULL,
    recorded_at    TIMESTAMPTZ NOT NULL,
    summary        TEXT        NOT NULL CHECK (char_length(summary) <= 200),
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE proj_run_event_count (
    run_id UUID   PRIMARY KEY,
    events BIGINT NOT NULL
);

-- The events stored before this migration, summarised here once in SQL, each cut to 200 characters: the same facts as
-- ingest's summaries in nearly the same words (RunStarted's without its key's label, numbers unrounded, other events as
-- jsonb text); POST /admin/rebuild rewrites them in ingest's. Events the projections skip (a payload that names another
-- run, a claim that names another writer) get no row.
CREATE FUNCTION podium_v99_number(x DOUBLE PRECISION) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN x = trunc(x) AND abs(x) < 1e7 THEN trunc(x)::bigint || '.0' ELSE x::text END
$$;

CREATE FUNCTION podium_v99_double(v JSONB) RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::float8 END
$$;

CREATE FUNCTION podium_v99_array(v JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(v) = 'array' THEN v ELSE '[]'::jsonb END
$$;

CREATE FUNCTION podium_v99_samples(samples JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT count(*) || CASE WHEN count(*) = 1 THEN ' sample' ELSE ' samples' END
           || CASE WHEN count(t) = 0 OR count(v) = 0 THEN ''
                   ELSE ', t ' || podium_v99_number(min(t)) || '-' || podium_v99_number(max(t)) || ' s, values '
                        || podium_v99_number(min(v)) || '-' || podium_v99_number(max(v)) END
    FROM (SELECT podium_v99_double(s -> 't') AS t, podium_v99_double(s -> 'value') AS v
          FROM jsonb_array_elements(podium_v99_array(samples)) s) x
$$;

-- The first hundred items' names (with " ×count" where count is given), comma-separated.
CREATE FUNCTION podium_v99_names(items JSONB, name TEXT, count TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT left(coalesce(string_agg(coalesce(i ->> name, '-') || coalesce(' ×' || (i ->> count), ''), ', ' ORDER BY n),
                         ''), 400)
    FROM jsonb_array_elements(podium_v99_array(items)) WITH ORDINALITY AS e(i, n)
    WHERE n <= 100
$$;

CREATE FUNCTION podium_v99_completed(p JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_array_length(podium_v99_array(p -> 'metrics')) || ' metrics: '
           || podium_v99_names(p -> 'metrics', 'name', NULL) || '; '
           || (SELECT count(*) FILTER (WHERE c -> 'passed' = 'true'::jsonb) || ' of ' || count(*) || ' checks passed'
               FROM jsonb_array_elements(podium_v99_array(p -> 'validity')) c)
           || coalesce('; ' || podium_v99_number(podium_v99_double(p -> 'duration_seconds')) || ' s', '')
$$;

CREATE FUNCTION podium_v99_summary(kind TEXT, p JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN char_length(s) > 200 THEN left(s, 199) || '…' ELSE s END
    FROM (SELECT regexp_replace(CASE kind
        WHEN 'MetricSampled' THEN
            coalesce(p ->> 'series', '-') || ' in ' || coalesce(p ->> 'unit', '-') || ': '
            || podium_v99_samples(p -> 'samples')
        WHEN 'RunStarted' THEN
            coalesce(p #>> '{key,benchmark}', '-') || '; devices '
            || podium_v99_names(p -> 'accelerators', 'device_id', 'total') || '; '
            || coalesce(p ->> 'repetitions', '-') || ' repetitions'
        WHEN 'RunCompleted' THEN podium_v99_completed(p)
        WHEN 'RunFailed' THEN
            'failed in ' || coalesce(p ->> 'phase', '-') || coalesce(' (exit ' || (p ->> 'exit_code') || ')', '')
            || ': ' || left(coalesce(p ->> 'reason', '-'), 400)
        ELSE left((p - 'run_id')::text, 400)
        END, '[[:cntrl:]]', ' ', 'g') AS s) x
$$;

INSERT INTO proj_run_event (run_id, seq, position, type, schema_version, writer, occurred_at, recorded_at, summary)
SELECT substr(stream_id, 5)::uuid, seq, position, type, schema_version, writer, occurred_at, recorded_at,
       podium_v99_summary(type, payload)
FROM event_store
WHERE stream_id ~ '^run/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  AND payload ->> 'run_id' = substr(stream_id, 5)
  AND (type <> 'JobClaimed' OR payload ->> 'agent_id' = writer);

INSERT INTO proj_run_event_count (run_id, events)
SELECT run_id, count(*) FROM proj_run_event GROUP BY run_id;

DROP FUNCTION podium_v99_summary(TEXT, JSONB);
DROP FUNCTION podium_v99_completed(JSONB);
DROP FUNCTION podium_v99_names(JSONB, TEXT, TEXT);
DROP FUNCTION podium_v99_samples(JSONB);
DROP FUNCTION podium_v99_array(JSONB);
DROP FUNCTION podium_v99_double(JSONB);
DROP FUNCTION podium_v99_number(DOUBLE PRECISION);
