package dev.podium.ingest.dlq;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import dev.podium.ingest.store.RecordCopy;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

/**
 * Produces refused records to {@code podium.events.dlq}: what {@link RecordCopy} keeps of the bytes, the original key and
 * headers, plus the reason, the source coordinates and the size and hash of the record as received, and waits for
 * every acknowledgement before the caller commits offsets. A copy the DLQ does not take (too large for it, refused by
 * the broker, not acknowledged in time) is reported back, not thrown: the refusal is already in rejected_event, and
 * reading the batch again could only fail the same way.
 */
@ApplicationScoped
public class DlqPublisher {

    private static final Logger LOG = Logger.getLogger(DlqPublisher.class);

    public static final String REASON = "podium-reject-reason";
    public static final String TOPIC = "podium-reject-topic";
    public static final String PARTITION = "podium-reject-partition";
    public static final String OFFSET = "podium-reject-offset";
    public static final String ORIGINAL_BYTES = "podium-reject-original-bytes";
    public static final String SHA256 = "podium-reject-sha256";
    public static final String TRUNCATED = "podium-reject-truncated";
    /** How long one publish waits for the DLQ's acknowledgements. */
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(10);

    /** A refused record and why. */
    public record DeadLetter(
            String topic,
            String topicId,
            int partition,
            long offset,
            byte[] key,
            RecordCopy copy,
            Headers headers,
            String reason) {}

    /** A dead letter the DLQ did not take, and the error. */
    public record Failed(DeadLetter letter, String error) {}

    private final IngestConfig config;
    private volatile KafkaProducer<byte[], byte[]> producer;

    public DlqPublisher(IngestConfig config) {
        this.config = config;
    }

    /** Produces every letter and waits for the acknowledgements; the letters that failed. */
    public List<Failed> publish(List<DeadLetter> letters) throws InterruptedException {
        if (letters.isEmpty()) {
            return List.of();
        }
        List<Future<RecordMetadata>> acks = new ArrayList<>(letters.size());
        List<Failed> failed = new ArrayList<>();
        KafkaProducer<byte[], byte[]> p = producer();
        for (DeadLetter d : letters) {
            try {
                acks.add(p.send(new ProducerRecord<>(
                        config.topics().dlq(), null, d.key(), d.copy().bytes(), headers(d))));
            } catch (KafkaException e) {
                acks.add(CompletableFuture.failedFuture(e));
            }
        }
        long deadline = System.nanoTime() + ACK_TIMEOUT.toNanos();
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                failed.add(new Failed(letters.get(i), e.getCause().toString()));
            } catch (TimeoutException e) {
                failed.add(new Failed(letters.get(i), "not acknowledged within " + ACK_TIMEOUT));
            }
        }
        if (!failed.isEmpty()) {
            LOG.warnf(
                    "%d of %d records could not be copied to the DLQ (%s); their refusals stay in rejected_event",
                    failed.size(), letters.size(), failed.get(0).error());
            // A producer with failed sends may be left fenced or with a stuck batch: the next publish starts afresh.
            reset(p);
        }
        return failed;
    }

    /** The original headers (key id, signature) travel along, so that a redrive can verify the record again. */
    private static RecordHeaders headers(DeadLetter d) {
        RecordHeaders headers = new RecordHeaders();
        if (d.headers() != null) {
            for (Header h : d.headers()) {
                if (!h.key().startsWith("podium-reject-")) {
                    headers.add(h);
                }
            }
        }
        headers.add(REASON, utf8(d.reason()));
        headers.add(TOPIC, utf8(d.topic()));
        headers.add(PARTITION, utf8(Integer.toString(d.partition())));
        headers.add(OFFSET, utf8(Long.toString(d.offset())));
        headers.add(ORIGINAL_BYTES, utf8(Integer.toString(d.copy().originalBytes())));
        if (d.copy().sha256() != null) {
            headers.add(SHA256, utf8(d.copy().sha256()));
        }
        headers.add(TRUNCATED, utf8(Boolean.toString(d.copy().truncated())));
        return headers;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private synchronized void reset(KafkaProducer<byte[], byte[]> failed) {
        if (producer == failed) {
            producer = null;
            failed.close(Duration.ZERO);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    Properties props = new Properties();
                    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                    KafkaLogin.apply(config, props);
                    props.put(ProducerConfig.ACKS_CONFIG, "all");
                    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
                    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * 1024 * 1024 + 64 * 1024);
                    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
                    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
                    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) ACK_TIMEOUT.toMillis());
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
