package dev.podium.ingest.consumer;

import java.nio.ByteBuffer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** A Kafka key (a stream id, as the agents send) within its partition; a null key: the records sent with none. */
record PartitionStream(TopicPartition partition, ByteBuffer key) {

    static PartitionStream of(ConsumerRecord<byte[], byte[]> r) {
        return new PartitionStream(
                new TopicPartition(r.topic(), r.partition()), r.key() == null ? null : ByteBuffer.wrap(r.key()));
    }
}
