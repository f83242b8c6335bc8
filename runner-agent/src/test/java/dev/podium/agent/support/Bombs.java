package dev.podium.agent.support;

import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Decompression bombs: records of zeros, alone in their gzip batch, a thousandth of their size on the wire. */
public final class Bombs {

    private Bombs() {}

    /** Sends an unsigned record of {@code bytes} zeros with gzip to one partition, and waits for the broker. */
    public static RecordMetadata gzip(String bootstrapServers, String topic, int partition, int bytes)
            throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        // The producer checks the size before compression; the broker's limit (1 MiB) applies to what it compressed.
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, bytes + 1024 * 1024);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 2L * bytes + 1024 * 1024);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(topic, partition, "bomb", new byte[bytes]))
                    .get(120, TimeUnit.SECONDS);
        }
    }
}
