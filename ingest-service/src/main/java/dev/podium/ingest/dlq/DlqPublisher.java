package dev.podium.ingest.dlq;

import dev.podium.ingest.config.IngestConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces refused records to {@code podium.events.dlq}: the bytes unchanged, the original key and headers, plus the
 * reason and the source coordinates in headers, and waits for every acknowledgement before the caller commits offsets.
 */
@ApplicationScoped
public class DlqPublisher {

    public static final String REASON = "podium-reject-reason";
    public static final String TOPIC = "podium-reject-topic";
    public static final String PARTITION = "podium-reject-partition";
    public static final String OFFSET = "podium-reject-offset";

    /** A refused record and why. */
    public record DeadLetter(String topic, int partition, long offset, byte[] key, byte[] value, Headers headers, String reason) {
    }

    private final IngestConfig config;
    private volatile KafkaProducer<byte[], byte[]> producer;

    public DlqPublisher(IngestConfig config) {
        this.config = config;
    }

    public void publish(List<DeadLetter> letters) throws ExecutionException, InterruptedException, TimeoutException {
        if (letters.isEmpty()) {
            return;
        }
        List<Future<RecordMetadata>> acks = new ArrayList<>(letters.size());
        for (DeadLetter d : letters) {
            // The original headers (key id, signature) travel along, so a redrive can verify the record again.
            RecordHeaders headers = new RecordHeaders();
            if (d.headers() != null) {
                for (Header h : d.headers()) {
                    if (!h.key().startsWith("podium-reject-")) {
                        headers.add(h);
                    }
                }
            }
            headers.add(REASON, d.reason().getBytes(StandardCharsets.UTF_8));
            headers.add(TOPIC, d.topic().getBytes(StandardCharsets.UTF_8));
            headers.add(PARTITION, Integer.toString(d.partition()).getBytes(StandardCharsets.UTF_8));
            headers.add(OFFSET, Long.toString(d.offset()).getBytes(StandardCharsets.UTF_8));
            acks.add(producer().send(new ProducerRecord<>(config.topics().dlq(), null, d.key(), d.value(), headers)));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get(30, TimeUnit.SECONDS);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    Properties props = new Properties();
                    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                    dev.podium.ingest.config.KafkaLogin.apply(config, props);
                    props.put(ProducerConfig.ACKS_CONFIG, "all");
                    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
                    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * 1024 * 1024 + 64 * 1024);
                    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
                    props.put(ProducerConfig.CLIENT_ID_CONFIG, "podium-ingest-dlq");
                    producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
                }
                p = producer;
            }
        }
        return p;
    }

    @PreDestroy
    void close() {
        if (producer != null) {
            producer.close();
        }
    }
}
