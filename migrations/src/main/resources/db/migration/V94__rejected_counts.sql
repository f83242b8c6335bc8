-- Refusals counted per day, topic, reason (its class: the words before the first colon) and source, in the same
-- transaction as their rejected_event rows, so that the counts survive the retention that deletes those rows. The source
-- is the signing key when ingest knows it, else '(unknown)': a key id nobody issued is the writer's choice and would
-- let anyone add rows here.
CREATE TABLE rejected_count (
    day     DATE   NOT NULL,
    topic   TEXT   NOT NULL,
    reason  TEXT   NOT NULL,
    key_id  TEXT   NOT NULL,
    records BIGINT NOT NULL,
    bytes   BIGINT NOT NULL,
    PRIMARY KEY (day, topic, reason, key_id)
);

INSERT INTO rejected_count (day, topic, reason, key_id, records, bytes)
SELECT r.rejected_at::date, r.topic, split_part(r.reason, ':', 1), coalesce(k.key_id, '(unknown)'), count(*),
       sum(r.record_bytes)
FROM rejected_event r LEFT JOIN agent_key k ON k.key_id = r.key_id
GROUP BY 1, 2, 3, 4;

-- The retention deletes the oldest rows first.
CREATE INDEX rejected_event_rejected_at_idx ON rejected_event (rejected_at);
