package dev.podium.ingest.consumer;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.consumer.IngestMetrics.Outcome;
import dev.podium.ingest.dlq.DlqPublisher;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

/**
 * The consumer of {@code podium.events}: a plain KafkaConsumer on its own thread, auto-commit off. Per polled batch:
 * {@link BatchProcessor} (one database transaction, committed), then the DLQ records produced and acknowledged, then
 * {@code commitSync} of the offsets.
 *
 * <p>Refusals are recorded in {@code rejected_event} inside the batch's transaction, and the DLQ records are produced
 * after the database commit and before the offset commit. A crash between the two replays the batch: rejected_event
 * keeps one row per source offset (ON CONFLICT), the events are duplicates, and the DLQ topic may receive the same
 * refused record a second time (same source offset header) - the accepted price for never losing a refusal.
 *
 * <p>A batch that fails (database or broker down) is rolled back, the consumer is closed without committing, and a new
 * one reads the batch again from the last committed offsets after a backoff; a batch is never skipped.
 */
@ApplicationScoped
public class EventConsumer {

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);

    private final IngestConfig config;
    private final BatchProcessor processor;
    private final DlqPublisher dlq;
    private final IngestMetrics metrics;
    private final CrashPoint crashPoint;
    private volatile Worker worker;

    public EventConsumer(IngestConfig config, BatchProcessor processor, DlqPublisher dlq, IngestMetrics metrics,
            CrashPoint crashPoint) {
        this.config = config;
        this.processor = processor;
        this.dlq = dlq;
        this.metrics = metrics;
        this.crashPoint = crashPoint;
    }

    /** Starts a consumer thread (a new group member) unless one is running. */
    public synchronized void start() {
        if (worker != null && worker.isAlive()) {
            return;
        }
        worker = new Worker();
        worker.start();
    }

    /** Stops the consumer thread and waits for it to close. */
    public synchronized void stop() {
        Worker w = worker;
        if (w != null) {
            w.shutdown();
        }
    }

    public boolean isRunning() {
        Worker w = worker;
        return w != null && w.isAlive();
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        dev.podium.ingest.config.KafkaLogin.apply(config, p);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumer().groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.consumer().maxPollRecords());
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) config.consumer().sessionTimeout().toMillis());
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(500, config.consumer().sessionTimeout().toMillis() / 4));
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-ingest-events");
        return p;
    }

    private final class Worker extends Thread {

        private volatile boolean running = true;
        private volatile KafkaConsumer<byte[], byte[]> consumer;

        Worker() {
            super("podium-ingest-events");
            setDaemon(true);
        }

        void shutdown() {
            running = false;
            KafkaConsumer<byte[], byte[]> c = consumer;
            if (c != null) {
                c.wakeup();
            }
            try {
                join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            while (running) {
                try {
                    consume();
                } catch (WakeupException e) {
                    if (running) {
                        LOG.error("event consumer woken unexpectedly", e);
                    }
                } catch (Exception e) {
                    // The consumer is closed without committing; a new one resumes from the committed offsets.
                    LOG.errorf(e, "batch failed; reading again from the committed offsets in %s",
                            config.consumer().retryBackoff());
                    backoff();
                }
            }
            LOG.info("event consumer stopped");
        }

        private void consume() throws Exception {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProperties(), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer = c;
                if (!running) {
                    return;
                }
                c.subscribe(List.of(config.topics().events()));
                while (running) {
                    ConsumerRecords<byte[], byte[]> polled = c.poll(config.consumer().pollTimeout());
                    updateLag(c);
                    if (!polled.isEmpty()) {
                        handle(c, polled);
                    }
                }
            } finally {
                consumer = null;
            }
        }

        private void handle(KafkaConsumer<byte[], byte[]> c, ConsumerRecords<byte[], byte[]> polled) throws Exception {
            Timer.Sample sample = Timer.start();
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(polled.count());
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                records.add(r);
                offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            BatchProcessor.Result result;
            try {
                result = processor.process(records);
            } catch (SQLException e) {
                if (!BatchProcessor.isDataError(e)) {
                    throw e;
                }
                result = oneByOne(records, e);
            }
            crashPoint.reached(CrashPoint.Stage.AFTER_DB_COMMIT);
            dlq.publish(result.deadLetters());
            crashPoint.reached(CrashPoint.Stage.BEFORE_OFFSET_COMMIT);
            c.commitSync(offsets);
            crashPoint.reached(CrashPoint.Stage.AFTER_OFFSET_COMMIT);
            metrics.count(Outcome.ACCEPTED, result.accepted());
            metrics.count(Outcome.DUPLICATE, result.duplicates());
            metrics.count(Outcome.CONFLICT, result.conflicts());
            metrics.count(Outcome.REJECTED, result.rejected());
            sample.stop(metrics.batchTimer());
        }

        /**
         * A batch that failed on a data error is processed again one record per transaction, so that the one record
         * behind it is refused with the database's reason and every other record is stored: no record can stall a
         * partition.
         */
        private BatchProcessor.Result oneByOne(List<ConsumerRecord<byte[], byte[]>> records, SQLException cause)
                throws SQLException {
            LOG.warnf("batch of %d records hit a data error (%s); processing it one record at a time", records.size(),
                    cause.getMessage());
            int accepted = 0;
            int duplicates = 0;
            int conflicts = 0;
            int rejected = 0;
            List<DlqPublisher.DeadLetter> letters = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                BatchProcessor.Result one;
                try {
                    one = processor.process(List.of(r));
                } catch (SQLException e) {
                    if (!BatchProcessor.isDataError(e)) {
                        throw e;
                    }
                    one = processor.refuse(r, "invalid: cannot be stored (SQLSTATE " + e.getSQLState() + ")");
                }
                accepted += one.accepted();
                duplicates += one.duplicates();
                conflicts += one.conflicts();
                rejected += one.rejected();
                letters.addAll(one.deadLetters());
            }
            return new BatchProcessor.Result(accepted, duplicates, conflicts, rejected, letters);
        }

        private void backoff() {
            try {
                Thread.sleep(config.consumer().retryBackoff().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }

        private void updateLag(KafkaConsumer<byte[], byte[]> c) {
            long lag = 0;
            for (TopicPartition tp : c.assignment()) {
                lag += c.currentLag(tp).orElse(0);
            }
            metrics.lag(lag);
        }
    }
}
