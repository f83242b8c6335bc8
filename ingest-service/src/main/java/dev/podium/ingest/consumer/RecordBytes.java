package dev.podium.ingest.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What a record counts for against the read-ahead's and the checks' byte bounds. */
final class RecordBytes {

    private RecordBytes() {}

    /** Its value's serialized bytes, at least 1: a record with an empty or no value still takes room. */
    static long of(ConsumerRecord<byte[], byte[]> record) {
        return Math.max(1, record.serializedValueSize());
    }
}
