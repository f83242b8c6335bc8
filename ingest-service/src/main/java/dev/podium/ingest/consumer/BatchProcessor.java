package dev.podium.ingest.consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.podium.events.StreamKind;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.budget.Budgets;
import dev.podium.ingest.command.JobCommands;
import dev.podium.ingest.dlq.DlqPublisher;
import dev.podium.ingest.dlq.DlqPublisher.DeadLetter;
import dev.podium.ingest.projection.Projections;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.AgentKeyStore;
import dev.podium.ingest.store.Appended;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.NewEvent;
import dev.podium.ingest.store.RecordCopy;
import dev.podium.ingest.store.RejectedStore;
import dev.podium.ingest.store.RejectedStore.Rejection;
import dev.podium.ingest.store.StoredEvent;
import dev.podium.ingest.verify.Verdict;
import dev.podium.ingest.verify.Verifier;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jboss.logging.Logger;

/**
 * One polled batch in two steps. {@link #check} verifies every record (key lookup, HMAC, decode, validation) and encodes
 * the payloads of the verified ones for their jsonb column: CPU work that needs no transaction, so the consumer runs it
 * for the next batch while the database works on this one. {@link #process} then, in one database transaction, refuses
 * records whose run stream has another writer, holds those over a run's budget or an agent's quota ({@link Budgets}),
 * appends the verified ones with a single
 * {@code INSERT ... ON CONFLICT DO NOTHING RETURNING}, tells duplicates from conflicts, applies the projections of the new
 * events in position order, records refusals in {@code rejected_event} and commits. Nothing a record contains can raise
 * an SQL error here (every insert is ON CONFLICT, every string is validated or cleaned first), so one bad record never
 * fails its neighbours. What the caller must still do, in this order: produce {@link Result#deadLetters()} and wait for
 * the acknowledgements, then commit the offsets.
 */
@ApplicationScoped
public class BatchProcessor {

    static final int CONFLICT_ATTEMPTS = 3;
    private static final Set<String> CONFLICT_STATES = Set.of("23505", "40001", "40P01");
    private static final Logger LOG = Logger.getLogger(BatchProcessor.class);

    /** What the batch did; dead letters are every refusal of this pass, whether or not it was recorded before. */
    public record Result(int accepted, int duplicates, int conflicts, int rejected, List<DeadLetter> deadLetters) {}

    /**
     * A batch after {@link #check}: per record its verdict and, when verified, its payload as JSON (null otherwise). Keys
     * were read when the batch was checked, after it was polled: a record polled after its key was revoked is refused.
     */
    public record Checked(List<ConsumerRecord<byte[], byte[]>> records, List<Verdict> verdicts, List<String> payloads) {

        /** This batch's records, then {@code next}'s: two parts of one polled batch checked apart. */
        public Checked followedBy(Checked next) {
            List<ConsumerRecord<byte[], byte[]>> r = new ArrayList<>(records);
            r.addAll(next.records());
            List<Verdict> v = new ArrayList<>(verdicts);
            v.addAll(next.verdicts());
            List<String> p = new ArrayList<>(payloads);
            p.addAll(next.payloads());
            return new Checked(r, v, p);
        }
    }

    private final AgroalDataSource dataSource;
    private final AgentKeyStore keys;
    private final EventStore store;
    private final RejectedStore rejectedStore;
    private final Projections projections;
    private final CrashPoint crashPoint;
    private final JobCommands jobs;
    private final TopicIncarnations incarnations;
    private final Budgets budgets;
    private final EventCodec codec = new EventCodec();
    private final Verifier verifier = new Verifier(codec);

    public BatchProcessor(
            AgroalDataSource dataSource,
            AgentKeyStore keys,
            EventStore store,
            RejectedStore rejectedStore,
            Projections projections,
            CrashPoint crashPoint,
            JobCommands jobs,
            TopicIncarnations incarnations,
            Budgets budgets) {
        this.dataSource = dataSource;
        this.keys = keys;
        this.store = store;
        this.rejectedStore = rejectedStore;
        this.projections = projections;
        this.crashPoint = crashPoint;
        this.jobs = jobs;
        this.incarnations = incarnations;
        this.budgets = budgets;
    }

    /** Verifies every record and encodes the verified payloads; reads agent_key, writes nothing. Thread-safe. */
    public Checked check(List<ConsumerRecord<byte[], byte[]>> records) throws SQLException {
        Set<String> keyIds = new LinkedHashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Verifier.keyId(r.headers()).ifPresent(keyIds::add);
        }
        Map<String, AgentKey> known = Map.of();
        if (!keyIds.isEmpty()) {
            try (Connection c = dataSource.getConnection()) {
                known = keys.lookup(c, keyIds);
            }
        }
        List<Verdict> verdicts = new ArrayList<>(records.size());
        List<String> payloads = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Verdict verdict = verifier.verify(r.value(), r.headers(), known, Verifier.appendedAt(r));
            verdicts.add(verdict);
            payloads.add(verdict instanceof Verdict.Verified v ? payloadJson(v) : null);
        }
        return new Checked(records, verdicts, payloads);
    }

    /**
     * Writes the batch in one transaction. A transaction that loses a race with another ingest instance (both creating the
     * same projection row, a deadlock, a serialization failure) is rolled back and the batch written again, up to
     * {@value #CONFLICT_ATTEMPTS} times: the conflict is no record's fault, and the error would otherwise be taken for a
     * record's data error and have a record refused.
     */
    public Result process(Checked batch) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return processOnce(batch);
            } catch (SQLException e) {
                if (attempt == CONFLICT_ATTEMPTS || !isConcurrencyConflict(e)) {
                    throw e;
                }
                LOG.infof(
                        "batch of %d lost a race with another transaction (SQLSTATE %s); writing it again",
                        batch.records().size(), e.getSQLState());
            }
        }
    }

    /** Unique violation (another transaction inserted the same row first), serialization failure, deadlock. */
    static boolean isConcurrencyConflict(SQLException e) {
        return anyState(e, CONFLICT_STATES::contains);
    }

    private Result processOnce(Checked batch) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Result result = inTransaction(c, batch);
                crashPoint.reached(CrashPoint.Stage.BEFORE_DB_COMMIT);
                c.commit();
                return result;
            } catch (Throwable e) {
                // Whatever ends the batch (a simulated crash included) leaves nothing of it in the database.
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Refuses one record whose storing raised a data error (a PostgreSQL data or integrity exception that validation did
     * not foresee): it is recorded in rejected_event, in a transaction of its own, so its neighbours can be stored.
     */
    public Result refuse(ConsumerRecord<byte[], byte[]> r, String reason) throws SQLException {
        Rejection rejection = rejection(
                r,
                reason,
                RecordCopy.of(r.value(), true),
                false,
                Verifier.keyId(r.headers()).orElse(null),
                null,
                null,
                new HashMap<>());
        store(rejection);
        return new Result(0, 0, 0, 1, List.of(deadLetter(r, rejection)));
    }

    /**
     * Refuses a record that was never copied out of Kafka's buffer: over the size limit after decompression
     * ({@code value} its buffer, of which a prefix and a hash are kept), or one at which processes died reading it
     * ({@code value} null). In a transaction of its own, so that the consumer can seek past it.
     */
    public Result setAside(TopicPartition tp, long offset, Headers headers, ByteBuffer value, String reason)
            throws SQLException {
        Headers kept = headers == null ? new RecordHeaders() : headers;
        Rejection rejection = new Rejection(
                tp.topic(),
                topicId(tp.topic()),
                tp.partition(),
                offset,
                reason,
                Verifier.keyId(kept).orElse(null),
                null,
                null,
                RecordCopy.ofUnread(value),
                Verifier.signature(kept).orElse(null),
                false);
        store(rejection);
        DeadLetter letter = new DeadLetter(
                tp.topic(), rejection.topicId(), tp.partition(), offset, null, rejection.copy(), kept, reason);
        return new Result(0, 0, 0, 1, List.of(letter));
    }

    private void store(Rejection rejection) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                rejectedStore.record(c, List.of(rejection));
                c.commit();
            } catch (Throwable e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** The dead letter of a refused record: the record as it came, with the rejection's copy and reason. */
    private static DeadLetter deadLetter(ConsumerRecord<byte[], byte[]> r, Rejection rejection) {
        return new DeadLetter(
                r.topic(),
                rejection.topicId(),
                r.partition(),
                r.offset(),
                r.key(),
                rejection.copy(),
                r.headers(),
                rejection.reason());
    }

    /** Notes on their rejected_event rows why the copies of these refusals to the DLQ failed. */
    public void dlqFailed(List<DlqPublisher.Failed> failed) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            for (DlqPublisher.Failed f : failed) {
                DeadLetter d = f.letter();
                rejectedStore.dlqFailed(c, d.topic(), d.topicId(), d.partition(), d.offset(), f.error());
            }
        }
    }

    private String topicId(String topic) throws SQLException {
        try {
            return incarnations.of(topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while looking up the id of topic " + topic, "08000", e);
        } catch (ExecutionException | TimeoutException e) {
            // Not a data error (SQLSTATE class 08): the batch is read again, as when the database is away.
            throw new SQLException("could not look up the id of topic " + topic + ": " + e, "08000", e);
        }
    }

    /** True for errors caused by the data of a record (SQLSTATE classes 22 and 23), false for the database being away. */
    public static boolean isDataError(SQLException e) {
        return anyState(e, state -> state.startsWith("22") || state.startsWith("23"));
    }

    /** Whether the exception or one chained to it ({@code getNextException}, as batches report) has such a SQLSTATE. */
    private static boolean anyState(SQLException e, Predicate<String> test) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if (x.getSQLState() != null && test.test(x.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private Result inTransaction(Connection c, Checked batch) throws SQLException {
        Projections.lockShared(c);
        long t0 = System.nanoTime();
        List<ConsumerRecord<byte[], byte[]>> records = batch.records();
        Verdict[] verdicts = batch.verdicts().toArray(new Verdict[0]);
        checkRunOwners(c, verdicts, runStreams(verdicts));
        budgets.hold(c, verdicts);

        List<NewEvent> candidates = new ArrayList<>();
        List<Integer> candidateIndex = new ArrayList<>();
        addCandidates(batch, verdicts, candidates, candidateIndex);
        long t1 = System.nanoTime();
        List<Appended> appended = store.append(c, candidates);
        long t2 = System.nanoTime();

        List<StoredEvent> fresh = new ArrayList<>();
        String[] conflictReasons = new String[records.size()];
        int conflicts = sortAppended(appended, candidates, candidateIndex, fresh, conflictReasons);
        applyInPositionOrder(c, fresh);
        long t3 = System.nanoTime();

        List<Rejection> rejections = new ArrayList<>();
        List<DeadLetter> letters = new ArrayList<>();
        int rejected = addRefusals(records, verdicts, conflictReasons, rejections, letters);
        rejectedStore.record(c, rejections);
        LOG.debugf(
                "batch of %d: owners %d ms, append %d ms, projections %d ms, rejects %d ms",
                records.size(),
                (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000,
                (System.nanoTime() - t3) / 1_000_000);
        // Every append is inserted (one fresh event each), a duplicate or a conflict.
        int duplicates = appended.size() - fresh.size() - conflicts;
        return new Result(fresh.size(), duplicates, conflicts, rejected, letters);
    }

    /** The run streams of the verified records, in batch order. */
    private static Set<String> runStreams(Verdict[] verdicts) {
        Set<String> runStreams = new LinkedHashSet<>();
        for (Verdict verdict : verdicts) {
            if (verdict instanceof Verdict.Verified v && isRun(v)) {
                runStreams.add(v.envelope().streamId());
            }
        }
        return runStreams;
    }

    /** Adds each verified record as an event to append, with its index in the batch. */
    private static void addCandidates(
            Checked batch, Verdict[] verdicts, List<NewEvent> candidates, List<Integer> candidateIndex) {
        List<ConsumerRecord<byte[], byte[]>> records = batch.records();
        for (int i = 0; i < records.size(); i++) {
            if (verdicts[i] instanceof Verdict.Verified v) {
                ConsumerRecord<byte[], byte[]> r = records.get(i);
                candidates.add(new NewEvent(
                        v.envelope(),
                        v.agentId(),
                        v.keyId(),
                        batch.payloads().get(i),
                        v.contentHash(),
                        r.topic(),
                        r.partition(),
                        r.offset()));
                candidateIndex.add(i);
            }
        }
    }

    /**
     * Adds the inserted events to {@code fresh} and each conflict's reason at its record's index in {@code reasons};
     * returns the number of conflicts.
     */
    private static int sortAppended(
            List<Appended> appended,
            List<NewEvent> candidates,
            List<Integer> candidateIndex,
            List<StoredEvent> fresh,
            String[] reasons) {
        int conflicts = 0;
        for (int j = 0; j < appended.size(); j++) {
            Appended a = appended.get(j);
            if (a instanceof Appended.Inserted ins) {
                fresh.add(new StoredEvent(ins.position(), candidates.get(j).envelope()));
            } else if (a instanceof Appended.Conflict conflict) {
                conflicts++;
                reasons[candidateIndex.get(j)] = conflict.reason();
            }
        }
        return conflicts;
    }

    private void applyInPositionOrder(Connection c, List<StoredEvent> fresh) throws SQLException {
        fresh.sort(Comparator.comparingLong(StoredEvent::position));
        projections.apply(c, fresh);
        // The command side answers what the new events ask of it (grants, job ends) in the same transaction.
        jobs.onRunEvents(c, fresh);
    }

    /**
     * Adds the rejected_event row and the dead letter of each record refused when checked or conflicting on append, in
     * batch order; returns the number refused when checked.
     */
    private int addRefusals(
            List<ConsumerRecord<byte[], byte[]>> records,
            Verdict[] verdicts,
            String[] conflictReasons,
            List<Rejection> rejections,
            List<DeadLetter> letters)
            throws SQLException {
        int refusedCount = 0;
        Map<String, String> topicIds = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = records.get(i);
            Rejection rejection;
            if (verdicts[i] instanceof Verdict.Refused refused) {
                refusedCount++;
                rejection = rejection(
                        r,
                        refused.reason(),
                        refused.kept() != null ? refused.kept() : RecordCopy.of(r.value(), refused.keepsWhole()),
                        refused.held(),
                        refused.keyId(),
                        refused.eventId(),
                        refused.streamId(),
                        topicIds);
            } else if (conflictReasons[i] != null) {
                Verdict.Verified v = (Verdict.Verified) verdicts[i];
                rejection = rejection(
                        r,
                        conflictReasons[i],
                        RecordCopy.of(r.value(), true),
                        false,
                        v.keyId(),
                        v.envelope().eventId().toString(),
                        v.envelope().streamId(),
                        topicIds);
            } else {
                continue;
            }
            rejections.add(rejection);
            letters.add(deadLetter(r, rejection));
        }
        return refusedCount;
    }

    /**
     * The rejected_event row of a refused record, keeping {@code kept} of it ({@code held}: spared by retention);
     * {@code topicIds} keeps the ids of the topics looked up so far.
     */
    private Rejection rejection(
            ConsumerRecord<byte[], byte[]> r,
            String reason,
            RecordCopy kept,
            boolean held,
            String keyId,
            String eventId,
            String streamId,
            Map<String, String> topicIds)
            throws SQLException {
        String topicId = topicIds.get(r.topic());
        if (topicId == null) {
            topicId = topicId(r.topic());
            topicIds.put(r.topic(), topicId);
        }
        return new Rejection(
                r.topic(),
                topicId,
                r.partition(),
                r.offset(),
                reason,
                keyId,
                eventId,
                streamId,
                kept,
                Verifier.signature(r.headers()).orElse(null),
                held);
    }

    private static boolean isRun(Verdict.Verified v) {
        return v.envelope().type().streamKind() == StreamKind.RUN;
    }

    /**
     * A run stream belongs to the agent that wrote its first stored event; for a stream new in this batch, to the writer
     * of its first verified record here. Any other writer is refused.
     */
    private void checkRunOwners(Connection c, Verdict[] verdicts, Set<String> runStreams) throws SQLException {
        if (runStreams.isEmpty()) {
            return;
        }
        Map<String, String> owners = new HashMap<>(store.firstWriters(c, runStreams));
        for (int i = 0; i < verdicts.length; i++) {
            if (verdicts[i] instanceof Verdict.Verified v && isRun(v)) {
                String stream = v.envelope().streamId();
                String owner = owners.putIfAbsent(stream, v.agentId());
                if (owner != null && !owner.equals(v.agentId())) {
                    verdicts[i] = new Verdict.Refused(
                            "not the writer: " + stream + " is owned by agent '" + owner + "', not '" + v.agentId()
                                    + "'",
                            v.keyId(),
                            v.envelope().eventId().toString(),
                            stream);
                }
            }
        }
    }

    private String payloadJson(Verdict.Verified v) {
        try {
            return codec.mapper().writeValueAsString(v.envelope().payload());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a decoded payload always encodes", e);
        }
    }
}
