-- A refusal is one record of one incarnation of a topic: Kafka offsets start again at 0 when a topic is recreated or a
-- new broker is used against the same database, so the source offset alone would merge two refusals into one row.
-- topic_id is Kafka's id of the topic ('' for rows recorded before it was kept).
ALTER TABLE rejected_event ADD COLUMN topic_id TEXT NOT NULL DEFAULT '';
ALTER TABLE rejected_event DROP CONSTRAINT rejected_event_source_key;
ALTER TABLE rejected_event ADD CONSTRAINT rejected_event_source_key UNIQUE (topic, topic_id, kafka_partition, kafka_offset);

-- record holds the whole record when it can be redriven; a record over the size limit, or one that is not JSON at all,
-- keeps only its first bytes (record_truncated). record_bytes is the size as received, record_sha256 the hash of all of
-- it, so that a truncated copy still identifies the record.
ALTER TABLE rejected_event ADD COLUMN record_sha256 TEXT;
ALTER TABLE rejected_event ADD COLUMN record_truncated BOOLEAN NOT NULL DEFAULT FALSE;

-- Why the copy to the DLQ failed, when it did: the refusal is still counted here, and the batch is not read again.
ALTER TABLE rejected_event ADD COLUMN dlq_error TEXT;
