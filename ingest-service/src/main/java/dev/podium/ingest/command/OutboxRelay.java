package dev.podium.ingest.command;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import dev.podium.ingest.store.Outbox;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
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
    private final AgroalDataSource dataSource;
    private final Outbox outbox;
    private KafkaProducer<byte[], byte[]> producer;

    public OutboxRelay(IngestConfig config, AgroalDataSource dataSource, Outbox outbox) {
        this.config = config;
        this.dataSource = dataSource;
        this.outbox = outbox;
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

    /** Sends one batch of unsent rows and marks them sent; the number sent. */
    int relayOnce() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT pg_try_advisory_xact_lock(" + RELAY_LOCK + ")")) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        c.rollback();
                        return 0;
                    }
                }
                List<Outbox.Row> rows = outbox.lockUnsent(c, BATCH);
                if (rows.isEmpty()) {
                    c.rollback();
                    return 0;
                }
                List<Future<RecordMetadata>> acks = new ArrayList<>(rows.size());
                for (Outbox.Row row : rows) {
                    ProducerRecord<byte[], byte[]> record =
                            new ProducerRecord<>(row.topic(), row.key().getBytes(StandardCharsets.UTF_8), row.value());
                    row.headers()
                            .forEach((name, value) ->
                                    record.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
                    acks.add(producer.send(record));
                }
                for (Future<RecordMetadata> ack : acks) {
                    ack.get(60, TimeUnit.SECONDS);
                }
                outbox.markSent(c, rows);
                c.commit();
                return rows.size();
            } catch (Exception e) {
                c.rollback();
                throw e;
            }
        }
    }
}
