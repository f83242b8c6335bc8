package dev.podium.ingest.consumer;

import dev.podium.events.kafka.BoundedBytesDeserializer;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import dev.podium.ingest.consumer.IngestMetrics.Outcome;
import dev.podium.ingest.dlq.DlqPublisher;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Headers;
import org.jboss.logging.Logger;

/**
 * The consumer of {@code podium.events}: a plain KafkaConsumer on its own thread, auto-commit off. Per batch:
 * {@link BatchProcessor#check} on a second thread, {@link BatchProcessor#process} (one database transaction, committed),
 * then the DLQ records produced and acknowledged, then the offsets committed.
 *
 * <p>Offsets are committed asynchronously ({@code commitAsync}): waiting for the group coordinator took 10-25 ms per
 * batch on the benchmark machine, a fixed cost on every record's lag. A commit that is lost when the process dies costs
 * the replay of batches already stored, which are duplicates (the event store keeps one row per event id). When
 * partitions go (a rebalance, or {@code close()}), their offsets are committed synchronously first
 * (below), so a new owner starts where this one stopped.
 *
 * <p>Records are read ahead of the writes ({@link ReadAhead}, bounded per partition and in all) and each batch is taken
 * from what waits fair between writers, so that one agent's backlog in a partition (a flood, a planted run) does not
 * hold back another agent's run behind it; a stream's records, and a writer's, are written in partition order. The
 * checks (decoding, validation, HMAC) of the polls read ahead run on a second thread while a batch is written. A batch's
 * offsets are committed up to the lowest record of each partition not written yet; a record written ahead of it is read
 * again, as a duplicate, after a restart. When partitions go (a rebalance), what waits of them is dropped and their
 * offsets committed up to it: the next owner reads it.
 *
 * <p>Refusals are recorded in {@code rejected_event} inside the batch's transaction, and the DLQ records are produced
 * after the database commit and before the offset commit. A crash between the two replays the batch: rejected_event
 * keeps one row per source offset of a topic's incarnation (ON CONFLICT), the events are duplicates, and the DLQ topic may receive the same
 * refused record a second time (same source offset header) - the accepted price for never losing a refusal. A copy the
 * DLQ does not take is noted on its rejected_event row and the offsets are committed all the same: the batch is never
 * read again for it.
 *
 * <p>A batch that fails (database or broker down) is rolled back, the consumer is closed without committing, and a new
 * one reads the batch again from the last committed offsets after a backoff; a batch is never skipped.
 */
@ApplicationScoped
public class EventConsumer {

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);
    /** Polls a read-ahead takes before the next write at most: the checks of what they bring must keep up. */
    private static final int MAX_POLLS_AHEAD = 8;

    /** How long the commit before partitions go may wait: a broker that is away must not hold up a restart. */
    private static final Duration LEAVING_COMMIT_TIMEOUT = Duration.ofSeconds(5);

    static final String DIED_READING = "too large after decompression: ingest processes ended (out of memory, or"
            + " killed) each time they read this record, " + ReadLedger.DEATHS_BEFORE_SET_ASIDE + " times";

    private final IngestConfig config;
    private final BatchProcessor processor;
    private final DlqPublisher dlq;
    private final IngestMetrics metrics;
    private final CrashPoint crashPoint;
    private final Progress progress;
    private final ReadLedger ledger;
    private volatile Worker worker;

    public EventConsumer(
            IngestConfig config,
            BatchProcessor processor,
            DlqPublisher dlq,
            IngestMetrics metrics,
            CrashPoint crashPoint,
            Progress progress,
            ReadLedger ledger) {
        this.config = config;
        this.processor = processor;
        this.dlq = dlq;
        this.metrics = metrics;
        this.crashPoint = crashPoint;
        this.progress = progress;
        this.ledger = ledger;
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
        KafkaLogin.apply(config, p);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumer().groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // A producer that writes in Kafka transactions (a bulk import, a journal re-published in one go) must have its
        // records stored only once it commits: the event store is append-only, and an aborted record stored is a
        // result that was never sent. Records of plain producers (the agents) are visible as soon as they are written.
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.consumer().maxPollRecords());
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int)
                config.consumer().sessionTimeout().toMillis());
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int)
                Math.max(500, config.consumer().sessionTimeout().toMillis() / 4));
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-ingest-events");
        return p;
    }

    private final class Worker extends Thread {

        private volatile boolean running = true;
        private volatile KafkaConsumer<byte[], byte[]> consumer;
        private final GuardedPolls polls = new GuardedPolls(
                ledger,
                config.consumer().groupId(),
                config.consumer().maxPollRecords(),
                config.consumer().pollBytes());
        /** Checks the records read ahead while this thread writes a batch. */
        private final ExecutorService checker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "podium-ingest-check");
            t.setDaemon(true);
            return t;
        });
        /** Offsets of the batches written (stored, dead letters acknowledged), for the commit when partitions go. */
        private final Map<TopicPartition, OffsetAndMetadata> written = new HashMap<>();
        /** Polled (and being checked) but not written; only this thread reads or sets it. */
        private ReadAhead waiting = readAhead();

        /** The partitions this member owns, as the rebalance callbacks tell. */
        private final Set<TopicPartition> owned =
                new TreeSet<>(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));

        Worker() {
            super("podium-ingest-events");
            setDaemon(true);
        }

        /** A read-ahead bounded per partition and in all, checked on the second thread (see ReadAhead). */
        private ReadAhead readAhead() {
            int records = config.consumer().maxPollRecords();
            long bytes = config.consumer().pollBytes();
            return new ReadAhead(new CheckQueue(processor::check, checker), 4 * records, bytes / 2, 2 * bytes);
        }

        /**
         * The bytes of values one transaction writes at most: a quarter of a poll's, so that a run read behind another
         * writer's large records waits for at most one such transaction.
         */
        private long batchBytes() {
            return config.consumer().pollBytes() / 4;
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
            try {
                while (running) {
                    try {
                        consume();
                    } catch (WakeupException e) {
                        if (running) {
                            LOG.error("event consumer woken unexpectedly", e);
                        }
                    } catch (Exception e) {
                        // The consumer is closed without committing; a new one resumes from the committed offsets.
                        LOG.errorf(
                                e,
                                "batch failed; reading again from the committed offsets in %s",
                                config.consumer().retryBackoff());
                        backoff();
                    }
                }
                LOG.info("event consumer stopped");
            } finally {
                checker.shutdown();
            }
        }

        /**
         * One consumer, from its creation to its close; returns early, to be created again reading whole batches, once a
         * consumer reading one record a poll after a process died is past where that happened.
         */
        private void consume() throws Exception {
            KafkaConsumer<byte[], byte[]> c = polls.consumer(consumerProperties());
            consumer = c;
            waiting = readAhead();
            written.clear();
            owned(Set.of(), Set.of());
            try {
                if (!running) {
                    return;
                }
                c.subscribe(List.of(config.topics().events()), new Revocation(c));
                while (running && !toBeRecreated(c)) {
                    if (setAsideWhereProcessesDied(c, polls)) {
                        continue;
                    }
                    boolean idle = waiting.isEmpty();
                    // A careful consumer writes what it read before it reads on: a death is told to what it was doing.
                    if (idle || (!polls.careful() && waiting.hasRoom())) {
                        try {
                            readOn(c, idle);
                        } catch (RecordDeserializationException e) {
                            setAside(c, e);
                            continue;
                        }
                    }
                    Optional<ReadAhead.Batch> batch =
                            waiting.next(config.consumer().maxPollRecords(), batchBytes());
                    if (batch.isPresent()) {
                        write(c, batch.get());
                        progress.advanced(!waiting.isEmpty());
                    }
                }
            } finally {
                // Dropped before close(), whose revocation callback would otherwise commit offsets past a failed batch.
                // Never committed, it is read again.
                waiting = readAhead();
                consumer = null;
                c.close();
            }
        }

        /**
         * Reads ahead and starts the checks. With nothing waiting, the first poll waits for records (and takes a second
         * look, {@link #topUp}); then, and whenever records wait, polls take only what is already fetched, as long as they
         * bring records and the read-ahead has room: reading past one writer's backlog is what lets another writer's
         * records behind it into the next batch. Each poll's check runs on the second thread while a batch is written.
         * Partitions at the read-ahead's bound are left unread. A careful consumer reads one batch and writes it.
         */
        private void readOn(KafkaConsumer<byte[], byte[]> c, boolean idle) throws Exception {
            List<ConsumerRecord<byte[], byte[]>> polled = idle ? firstPoll(c) : zeroPoll(c);
            for (int polls = 1; ; polls++) {
                OptionalLong lag = updateLag(c);
                if (!polled.isEmpty() || lag.orElse(0) > 0) {
                    progress.recordsWaiting();
                } else if (waiting.isEmpty() && lag.isPresent()) {
                    progress.advanced(false);
                }
                if (polled.isEmpty()) {
                    return;
                }
                // a revocation during the poll may have dropped what waited: then nothing is written meanwhile
                waiting.add(polled);
                if (this.polls.careful() || !waiting.hasRoom() || polls == MAX_POLLS_AHEAD) {
                    return;
                }
                polled = zeroPoll(c);
            }
        }

        private List<ConsumerRecord<byte[], byte[]>> firstPoll(KafkaConsumer<byte[], byte[]> c) {
            polls.holdBack(c, waiting.full());
            return topUp(c, polls, polls.poll(c, config.consumer().pollTimeout()));
        }

        private List<ConsumerRecord<byte[], byte[]>> zeroPoll(KafkaConsumer<byte[], byte[]> c) {
            polls.holdBack(c, waiting.full());
            List<ConsumerRecord<byte[], byte[]>> polled = new ArrayList<>();
            polls.poll(c, Duration.ZERO).forEach(polled::add);
            return polled;
        }

        /** Whether {@link GuardedPolls} asks for the consumer to be closed and created again; said in the log. */
        private boolean toBeRecreated(KafkaConsumer<byte[], byte[]> c) {
            if (!polls.recreate(c)) {
                return false;
            }
            LOG.infof(
                    "creating the consumer again, %s",
                    polls.careful()
                            ? "reading whole batches: past where a process ended"
                            : "reading one record at a time where a process ended");
            return true;
        }

        /**
         * A record over the size limit after decompression: the batch in flight (which may hold records of the same
         * partition before it) is written first, then the record is refused with a prefix and a hash of its buffer, and
         * the consumer commits and seeks past it.
         */
        private void setAside(KafkaConsumer<byte[], byte[]> c, RecordDeserializationException e) throws Exception {
            Optional<String> refusal = BoundedBytesDeserializer.refusal(e);
            if (refusal.isEmpty()) {
                return; // not set aside: Kafka reads the record again at the next poll
            }
            boolean key = e.origin() == RecordDeserializationException.DeserializationExceptionOrigin.KEY;
            setAside(
                    c,
                    e.topicPartition(),
                    e.offset(),
                    e.headers(),
                    key ? e.keyBuffer() : e.valueBuffer(),
                    refusal.get());
        }

        /** Sets aside the record the consumer is at on a partition where processes died reading it; true if any. */
        private boolean setAsideWhereProcessesDied(KafkaConsumer<byte[], byte[]> c, GuardedPolls polls)
                throws Exception {
            Optional<GuardedPolls.DeadRecord> dead = polls.deadRecord(c);
            if (dead.isPresent()) {
                setAside(c, dead.get().partition(), dead.get().offset(), null, null, DIED_READING);
            }
            return dead.isPresent();
        }

        private void setAside(
                KafkaConsumer<byte[], byte[]> c,
                TopicPartition tp,
                long offset,
                Headers headers,
                ByteBuffer value,
                String reason)
                throws Exception {
            // what waits may hold records of the partition before this one: committing past it must not pass them
            for (ReadAhead.Batch batch : waiting.all(config.consumer().maxPollRecords(), batchBytes())) {
                write(c, batch);
            }
            LOG.warnf("record %s@%d set aside: %s", tp, offset, reason);
            BatchProcessor.Result result = processor.setAside(tp, offset, headers, value, reason);
            List<DlqPublisher.Failed> notCopied = dlq.publish(result.deadLetters());
            if (!notCopied.isEmpty()) {
                processor.dlqFailed(notCopied);
            }
            Map<TopicPartition, OffsetAndMetadata> past = Map.of(tp, new OffsetAndMetadata(offset + 1));
            c.commitSync(past);
            written.putAll(past);
            waiting.passed(tp, offset + 1);
            c.seek(tp, offset + 1);
            metrics.count(Outcome.REJECTED, 1);
        }

        /**
         * A poll returns what the fetch sent by the previous poll brought, and the broker answered that fetch as soon as
         * the first records arrived after it: whatever arrived while the last batch was written is still at the
         * broker, one fetch away. A short second poll takes it into the same batch instead of leaving it for the next
         * one, which would double its lag and cost a transaction for a handful of records. Records of partitions
         * revoked during that poll are left out (never written, never committed: their new owner reads them).
         */
        private List<ConsumerRecord<byte[], byte[]>> topUp(
                KafkaConsumer<byte[], byte[]> c, GuardedPolls polls, ConsumerRecords<byte[], byte[]> polled) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(polled.count());
            polled.forEach(records::add);
            if (polls.careful()) {
                return carefulBatch(c, polls, records);
            }
            if (records.isEmpty()
                    || records.size() >= config.consumer().maxPollRecords()
                    || config.consumer().topUp().isZero()) {
                return records;
            }
            ConsumerRecords<byte[], byte[]> more;
            try {
                more = polls.poll(c, config.consumer().topUp());
            } catch (RecordDeserializationException e) {
                return records; // the record stays where it is: the next poll meets it again, and sets it aside
            }
            if (more.isEmpty()) {
                return records;
            }
            more.forEach(records::add);
            Set<TopicPartition> owned = c.assignment();
            records.removeIf(r -> !owned.contains(new TopicPartition(r.topic(), r.partition())));
            return records;
        }

        /**
         * A careful consumer's batch: one record a poll, each poll preceded by saving its exact position, for as long as
         * the fetched records last (up to a batch's records or bytes), then written as one batch: a death while
         * decompressing is told to its record, and the batch costs one transaction, not one a record. Before the write
         * the positions are saved as not exact: a death while writing is no record's.
         */
        private List<ConsumerRecord<byte[], byte[]>> carefulBatch(
                KafkaConsumer<byte[], byte[]> c, GuardedPolls polls, List<ConsumerRecord<byte[], byte[]>> records) {
            long bytes =
                    records.stream().mapToLong(r -> r.serializedValueSize()).sum();
            while (!records.isEmpty()
                    && records.size() < config.consumer().maxPollRecords()
                    && bytes < config.consumer().pollBytes()) {
                ConsumerRecords<byte[], byte[]> more;
                try {
                    more = polls.poll(c, Duration.ZERO);
                } catch (RecordDeserializationException e) {
                    break; // met again by the next poll, which sets it aside
                }
                if (more.isEmpty()) {
                    break;
                }
                for (ConsumerRecord<byte[], byte[]> r : more) {
                    records.add(r);
                    bytes += r.serializedValueSize();
                }
            }
            if (!records.isEmpty()) {
                polls.beforeWrite(c);
            }
            return records;
        }

        private void write(KafkaConsumer<byte[], byte[]> c, ReadAhead.Batch batch) throws Exception {
            Timer.Sample sample = Timer.start();
            BatchProcessor.Result result;
            try {
                result = processor.process(batch.checked());
            } catch (SQLException e) {
                if (!BatchProcessor.isDataError(e)) {
                    throw e;
                }
                result = oneByOne(batch.checked(), e);
            }
            crashPoint.reached(CrashPoint.Stage.AFTER_DB_COMMIT);
            List<DlqPublisher.Failed> notCopied = dlq.publish(result.deadLetters());
            if (!notCopied.isEmpty()) {
                processor.dlqFailed(notCopied);
            }
            crashPoint.reached(CrashPoint.Stage.BEFORE_OFFSET_COMMIT);
            c.commitAsync(batch.offsets(), (offsets, e) -> {
                if (e != null) {
                    // a later commit, or the one when partitions go, covers these offsets
                    LOG.debugf("offset commit not done (%s); a later one covers it", e.toString());
                }
            });
            written.putAll(batch.offsets());
            crashPoint.reached(CrashPoint.Stage.AFTER_OFFSET_COMMIT);
            metrics.count(Outcome.ACCEPTED, result.accepted());
            metrics.count(Outcome.DUPLICATE, result.duplicates());
            metrics.count(Outcome.CONFLICT, result.conflicts());
            metrics.count(Outcome.REJECTED, result.rejected());
            sample.stop(metrics.batchTimer());
        }

        /**
         * Called inside {@code poll} or {@code close}: partitions are about to go to another member. The batch in flight
         * was polled from them while they were ours, so it is written now, and the offsets of everything written from
         * them are committed before they go; after this the next owner reads on from there.
         * A lost partition (this member was fenced) can no longer be committed: the batch is dropped and read again by
         * the new owner.
         */
        private final class Revocation implements ConsumerRebalanceListener {

            private final KafkaConsumer<byte[], byte[]> c;

            Revocation(KafkaConsumer<byte[], byte[]> c) {
                this.c = c;
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                Map<TopicPartition, OffsetAndMetadata> waitingFrom = waiting.committable(partitions);
                waiting.drop(partitions);
                Map<TopicPartition, OffsetAndMetadata> leaving = new HashMap<>();
                for (TopicPartition tp : partitions) {
                    OffsetAndMetadata offset = written.remove(tp);
                    OffsetAndMetadata from = waitingFrom.get(tp);
                    if (from != null) {
                        offset = from;
                    }
                    if (offset != null) {
                        leaving.put(tp, offset);
                    }
                }
                if (!leaving.isEmpty()) {
                    c.commitSync(leaving, LEAVING_COMMIT_TIMEOUT);
                }
                polls.revoked(partitions);
                owned(Set.of(), partitions);
            }

            /** Positions come from the committed offsets; the log line and the gauge show that a rebalance happened. */
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                polls.assigned(c, partitions);
                owned(partitions, Set.of());
                try {
                    // before this poll fetches: the record where processes died must not be read a third time
                    while (setAsideWhereProcessesDied(c, polls)) {
                        // one a partition
                    }
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new KafkaException("a record where processes died could not be set aside", e);
                }
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                waiting.drop(partitions);
                polls.lost(partitions);
                written.keySet().removeAll(partitions);
                owned(Set.of(), partitions);
            }
        }

        private void owned(Collection<TopicPartition> added, Collection<TopicPartition> removed) {
            boolean changed = owned.addAll(added) | owned.removeAll(removed);
            metrics.partitions(owned.size());
            if (changed) {
                LOG.infof(
                        "partitions of %s owned now: %d %s",
                        config.topics().events(),
                        owned.size(),
                        owned.stream()
                                .map(tp -> Integer.toString(tp.partition()))
                                .toList());
            }
        }

        /**
         * A batch that failed on a data error is processed again one record per transaction, each with the verdict its
         * check gave (a refused record may wait as no more than the prefix it keeps), so that the one record behind it
         * is refused with the database's reason and every other record is stored: no record can stall a partition.
         */
        private BatchProcessor.Result oneByOne(BatchProcessor.Checked batch, SQLException cause) throws SQLException {
            List<ConsumerRecord<byte[], byte[]>> records = batch.records();
            LOG.warnf(
                    "batch of %d records hit a data error (%s); processing it one record at a time",
                    records.size(), cause.getMessage());
            int accepted = 0;
            int duplicates = 0;
            int conflicts = 0;
            int rejected = 0;
            List<DlqPublisher.DeadLetter> letters = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                ConsumerRecord<byte[], byte[]> r = records.get(i);
                BatchProcessor.Result one;
                try {
                    one = processor.process(new BatchProcessor.Checked(
                            List.of(r),
                            List.of(batch.verdicts().get(i)),
                            Collections.singletonList(batch.payloads().get(i))));
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

        /** The records at the broker not read yet; empty while that is not known (no assignment, no position yet). */
        private OptionalLong updateLag(KafkaConsumer<byte[], byte[]> c) {
            long lag = 0;
            boolean known = !c.assignment().isEmpty();
            for (TopicPartition tp : c.assignment()) {
                OptionalLong l = c.currentLag(tp);
                known &= l.isPresent();
                lag += l.orElse(0);
            }
            metrics.lag(lag + waiting.size());
            return known ? OptionalLong.of(lag) : OptionalLong.empty();
        }
    }
}
