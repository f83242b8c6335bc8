-- Where each consumer of ingest was about to read, saved before every poll, so that a record that ends the process
-- while Kafka decompresses it (too large for the heap after decompression) can be found and set aside. clean: the
-- partition was handed over (revoked, or its consumer closed); a row still unclean under another owner when a consumer
-- is assigned its partition is where a process died. exact: saved before a poll of one record, so the record at
-- next_offset is the one that was being read. deaths counts the processes that died reading exactly at death_offset.
CREATE TABLE consumer_read_position (
    group_id        TEXT        NOT NULL,
    topic           TEXT        NOT NULL,
    kafka_partition INT         NOT NULL,
    next_offset     BIGINT      NOT NULL,
    exact           BOOLEAN     NOT NULL,
    clean           BOOLEAN     NOT NULL,
    -- the process that saved it: a process marks only its own rows clean, and takes over only others'
    owner           UUID        NOT NULL,
    death_offset    BIGINT,
    deaths          INT         NOT NULL DEFAULT 0,
    saved_at        TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (group_id, topic, kafka_partition)
);
