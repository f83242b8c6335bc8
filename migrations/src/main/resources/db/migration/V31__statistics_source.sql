-- Where a result's statistics come from: 'server' when ingest computed them from the raw values it stores beside them,
-- 'reported' when the writer sent figures without raw values (a harness's own percentiles), kept as sent. Derived from
-- raw_values, so every writer of proj_result (live ingest, a rebuild) sets it alike.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_name = 'proj_result' AND column_name = 'raw_values')
       AND NOT EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_name = 'proj_result' AND column_name = 'statistics_source') THEN
        ALTER TABLE proj_result ADD COLUMN statistics_source TEXT GENERATED ALWAYS AS (
            CASE WHEN raw_values IS NULL OR cardinality(raw_values) = 0 THEN 'reported' ELSE 'server' END) STORED;
    END IF;
END
$$;
