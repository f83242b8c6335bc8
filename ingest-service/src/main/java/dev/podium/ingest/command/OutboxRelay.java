package dev.podium.ingest.command;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import dev.podium.ingest.entity.OutboxEntity;
import dev.podium.ingest.store.Outbox;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

/**
 * Publishes unsent outbox rows in id order, waits for every acknowledgement, then marks them sent, in one transaction
 * that holds an advisory lock (one relay at a time across instances, so a job's records keep their order). A crash
 * between the acknowledgements and the commit sends those rows again: at least once, agents drop duplicates by event id.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    static final long RELAY_LOCK = 0x706f6469756d04L;
    private static final int BATCH = 500;

    private final IngestConfig config;
    private final EnlistedJdbc jdbc;
    private KafkaProducer<byte[], byte[]> producer;

    public OutboxRelay(IngestConfig config, EnlistedJdbc jdbc) {
        this.config = config;
        this.jdbc = jdbc;
    }

    /** Opens the producer; ticks send nothing until then. */
    public synchronized void start() {
        if (producer != null) {
            return;
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        KafkaLogin.apply(config, p);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "podium-ingest-outbox");
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Waits for a tick in progress (both hold the monitor), then closes the producer. */
    public synchronized void stop() {
        if (producer == null) {
            return;
        }
        producer.close(Duration.ofSeconds(10));
        producer = null;
    }

    public synchronized boolean isRunning() {
        return producer != null;
    }

    @Scheduled(
            identity = "outbox-relay",
            every = "${podium.ingest.jobs.relay-interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    synchronized void tick() {
        if (producer == null) {
            return;
        }
        try {
            while (relayOnce() == BATCH) {
                // a full batch: more may be waiting
            }
        } catch (Exception e) {
            LOG.warnf(e, "outbox relay failed; the rows stay unsent and are tried again");
        }
    }

    /** Sends one batch of unsent rows and marks them sent, in a transaction of its own; the number sent. */
    int relayOnce() {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (!jdbc.tryLock(RELAY_LOCK)) {
                return 0;
            }
            List<OutboxEntity> rows = OutboxEntity.lockUnsent(BATCH);
            List<Future<RecordMetadata>> acks = new ArrayList<>(rows.size());
            for (OutboxEntity row : rows) {
                acks.add(producer.send(producerRecord(Outbox.record(row))));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
            Instant sent = Instant.now();
            rows.forEach(row -> row.sentAt = sent);
            return rows.size();
        });
    }

    private static ProducerRecord<byte[], byte[]> producerRecord(Outbox.Record r) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(r.topic(), r.key().getBytes(StandardCharsets.UTF_8), r.value());
        r.headers().forEach((name, value) -> record.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
        return record;
    }
}
