package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.reliability.process.ChildProcess;
import dev.podium.reliability.process.IngestProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The fault cases. Each has its own agent and key, so its rows are told apart by writer; each ends with the exact
 * accounting of {@link #account}.
 */
public final class FaultCases {

    private static final Pattern JOURNALED = Pattern.compile("journaled (\\d+)");
    /** Partitions of podium.events (ingest creates it with 12). */
    private static final int PARTITIONS = 12;
    /** How often the accounting looks at the store and the offsets while it waits. */
    private static final Duration POLL = Duration.ofMillis(250);

    private static final int HALT_AFTER_BATCHES = 3;
    private static final String PARTITIONS_OWNED = "podium_ingest_consumer_partitions";
    private static final String DUPLICATES = "podium_ingest_events_total{outcome=\"duplicate\"}";

    private final Platform p;
    private final int n;
    private final String run = UUID.randomUUID().toString().substring(0, 6);

    public FaultCases(Platform platform, int eventsPerCase) {
        this.p = platform;
        this.n = eventsPerCase;
    }

    public int events() {
        return n;
    }

    Credentials agent(String name) {
        return p.admin.issue(name + "-" + run);
    }

    /** Every event delivered twice, all of them in a shuffled order (seq 40 of a run may come before its seq 1). */
    public CaseResult duplicatesReordered() {
        Credentials key = agent("dup");
        List<Envelope> events = Workload.events(key.agentId(), "dup", n);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (Envelope e : events) {
            records.add(key.signed(e));
            records.add(key.signed(e));
        }
        Collections.shuffle(records, new Random(6));
        long t0 = System.nanoTime();
        p.produce(records);
        return account(
                "duplicates-reordered",
                "every event sent twice, all " + records.size() + " records shuffled",
                key,
                ids(events),
                Map.of(),
                Set.of(),
                t0);
    }

    /** Half the events stored, then the other half with records that conflict with stored ones spread through it. */
    public CaseResult conflicts() {
        Credentials key = agent("conflict");
        List<Envelope> events = Workload.events(key.agentId(), "conflict", n);
        int half = n / 2;
        long t0 = System.nanoTime();
        p.produce(events.subList(0, half).stream().map(key::signed).toList());
        awaitStoredAtLeast(key, half, null);
        Random random = new Random(7);
        List<ProducerRecord<byte[], byte[]>> rest = new ArrayList<>(
                events.subList(half, n).stream().map(key::signed).toList());
        int conflicts = Math.max(2, n / 1000);
        Set<Integer> at = new HashSet<>();
        for (int i = 0; i < conflicts; i++) {
            Envelope stored = events.get(1 + random.nextInt(half - 1));
            Envelope conflicting = i % 2 == 0
                    // the same event id with other content (a seq within the run's budget of events: one past it is
                    // held before it could be told a conflict)
                    ? new Envelope(
                            stored.eventId(),
                            stored.type(),
                            1,
                            stored.streamId(),
                            stored.seq() + 1_000,
                            stored.agentId(),
                            stored.occurredAt(),
                            stored.payload())
                    // the same stream position under another event id
                    : new Envelope(
                            UUID.randomUUID(),
                            stored.type(),
                            1,
                            stored.streamId(),
                            stored.seq(),
                            stored.agentId(),
                            stored.occurredAt().plusSeconds(1),
                            stored.payload());
            int index = random.nextInt(rest.size() + 1);
            rest.add(index, key.signed(conflicting));
        }
        List<RecordMetadata> sent = p.produce(rest);
        Map<String, Long> seqById =
                events.stream().collect(Collectors.toMap(e -> e.eventId().toString(), Envelope::seq));
        Map<String, String> expectedRejects = new HashMap<>();
        for (int i = 0; i < rest.size(); i++) {
            if (isConflict(rest.get(i), seqById)) {
                expectedRejects.put(where(sent.get(i)), "conflict: ");
            }
        }
        return account(
                "conflict",
                conflicts + " records conflicting with stored events (same id other content, or same"
                        + " stream position other id) inside later batches",
                key,
                ids(events),
                expectedRejects,
                Set.of(),
                t0);
    }

    /** ingest-service SIGKILLed twice while it stores, and started again each time. */
    public CaseResult ingestKilled() {
        Credentials key = agent("ingest-kill");
        Path home = home("ingest-kill");
        long t0 = System.nanoTime();
        ChildProcess agent = p.startAgent("agent-ingest-kill", home, key, "ingest-kill", n);
        for (double at : new double[] {0.25, 0.6}) {
            awaitStoredAtLeast(key, (long) (n * at), agent);
            p.ingest.kill();
            p.ingest.start();
        }
        awaitExit(agent);
        return account(
                "ingest-sigkill",
                "ingest-service SIGKILLed mid-batch at 25% and 60% stored, restarted",
                key,
                ids(Workload.events(key.agentId(), "ingest-kill", n)),
                Map.of(),
                Set.of(),
                t0);
    }

    /**
     * Two ingest-service processes in one consumer group. The second halts (as a SIGKILL would: no offset commit, no
     * goodbye to the group) right after the database commit of its {@value #HALT_AFTER_BATCHES}rd batch, so that batch is
     * stored and its offsets are not; the first must take over its partitions, read that batch again as duplicates, and
     * hand partitions back when the second is started again. Rebalances are read from the first instance's
     * {@code podium_ingest_consumer_partitions}.
     */
    public CaseResult twoInstances() {
        Credentials key = agent("two-ingest");
        Path home = home("two-ingest");
        IngestProcess first = p.ingest;
        IngestProcess second = p.secondIngest;
        List<String> problems = new ArrayList<>();
        awaitPartitions(first, all -> all == PARTITIONS, "the first instance to own every partition alone");
        double duplicatesBefore = first.metric(DUPLICATES);
        long t0 = System.nanoTime();
        second.start(List.of(
                "-Dpodium.ingest.fault.halt-at=AFTER_DB_COMMIT",
                "-Dpodium.ingest.fault.halt-after-batches=" + HALT_AFTER_BATCHES));
        awaitPartitions(
                first,
                owned -> owned > 0 && owned < PARTITIONS,
                "a rebalance that gives the second instance partitions");
        ChildProcess agent = p.startAgent("agent-two-ingest", home, key, "two-ingest", n);
        int status = second.awaitExit(Math.max(180, n / 40));
        if (status != 137) {
            problems.add("the second instance exited " + status + ", not 137 (halted)");
        }
        if (!logContains(second.log(), "halting at AFTER_DB_COMMIT of batch " + HALT_AFTER_BATCHES)) {
            problems.add("the second instance's log does not say it halted after a database commit");
        }
        awaitPartitions(first, all -> all == PARTITIONS, "the first instance to take over every partition");
        second.start();
        awaitPartitions(
                first,
                owned -> owned > 0 && owned < PARTITIONS,
                "a rebalance that gives the restarted instance partitions");
        awaitExit(agent);
        CaseResult r = account(
                "two-ingest",
                "2 ingest-service instances in one group; one halted after the database"
                        + " commit of its " + HALT_AFTER_BATCHES
                        + "rd batch (offsets not committed), started again; the other's partitions"
                        + " 12 → shared → 12 (takeover) → shared",
                key,
                ids(Workload.events(key.agentId(), "two-ingest", n)),
                Map.of(),
                Set.of(),
                t0);
        double replayed = first.metric(DUPLICATES) - duplicatesBefore;
        if (!(replayed > 0)) {
            problems.add("the first instance counted no duplicates: the halted batch was not read again");
        }
        second.close();
        awaitPartitions(first, all -> all == PARTITIONS, "the first instance to own every partition again");
        problems.addAll(r.problems());
        return new CaseResult(
                r.name(),
                r.fault(),
                r.keyId(),
                r.records(),
                r.expectedAccepted(),
                r.expectedRejected(),
                r.accepted(),
                r.rejected(),
                r.lost(),
                r.duplicated(),
                r.dlq(),
                r.seconds(),
                problems);
    }

    private void awaitPartitions(IngestProcess ingest, java.util.function.DoublePredicate owned, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!owned.test(ingest.metric(PARTITIONS_OWNED))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "waited in vain for " + what + " (owns " + ingest.metric(PARTITIONS_OWNED) + ")");
            }
            Ports.sleep(100);
        }
    }

    private static boolean logContains(Path log, String text) {
        try {
            return Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1)
                    .contains(text);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The agent SIGKILLed twice while it journals and publishes; each new start resends what was not acknowledged. */
    public CaseResult agentKilled() {
        Credentials key = agent("agent-kill");
        Path home = home("agent-kill");
        long t0 = System.nanoTime();
        for (double at : new double[] {0.4, 0.75}) {
            ChildProcess agent = p.startAgent("agent-kill", home, key, "agent-kill", n);
            awaitJournaled(agent, (long) (n * at));
            agent.kill();
        }
        awaitExit(p.startAgent("agent-kill", home, key, "agent-kill", n));
        return account(
                "agent-sigkill",
                "agent SIGKILLed while publishing at 40% and 75% journaled, started again",
                key,
                ids(Workload.events(key.agentId(), "agent-kill", n)),
                Map.of(),
                Set.of(),
                t0);
    }

    /** The private PostgreSQL stopped the way a crash does, twice, while ingest writes. */
    public CaseResult postgresRestarted() {
        Credentials key = agent("pg-restart");
        Path home = home("pg-restart");
        long t0 = System.nanoTime();
        ChildProcess agent = p.startAgent("agent-pg", home, key, "pg-restart", n);
        for (double at : new double[] {0.3, 0.6}) {
            awaitStoredAtLeast(key, (long) (n * at), agent);
            p.postgres.restart();
        }
        awaitExit(agent);
        return account(
                "postgres-restart",
                "PostgreSQL stopped (immediate) and started at 30% and 60% stored",
                key,
                ids(Workload.events(key.agentId(), "pg-restart", n)),
                Map.of(),
                Set.of(),
                t0);
    }

    /** The broker stopped (SIGTERM) and later killed (SIGKILL) while the agent publishes, restarted each time. */
    public CaseResult kafkaRestarted() {
        Credentials key = agent("kafka-restart");
        Path home = home("kafka-restart");
        long t0 = System.nanoTime();
        ChildProcess agent = p.startAgent("agent-kafka", home, key, "kafka-restart", n);
        awaitStoredAtLeast(key, (long) (n * 0.3), agent);
        p.kafka.stop();
        Ports.sleep(2000);
        p.kafka.start();
        awaitStoredAtLeast(key, (long) (n * 0.6), agent);
        p.kafka.kill();
        Ports.sleep(2000);
        p.kafka.start();
        awaitExit(agent);
        return account(
                "kafka-restart",
                "Kafka broker stopped (SIGTERM) at 30% and killed (SIGKILL) at 60% stored," + " restarted each time",
                key,
                ids(Workload.events(key.agentId(), "kafka-restart", n)),
                Map.of(),
                Set.of(),
                t0);
    }

    /**
     * Keys end to end on the packaged service: admin calls without a named token get 401; events signed before a
     * rotation and delivered after it still verify; once the new key is revoked, what it signs is rejected.
     */
    public CaseResult keyRotation() {
        List<String> problems = new ArrayList<>();
        for (String token : new String[] {null, "not-a-token"}) {
            int status = p.admin.statusWithToken(token, "/admin/agents", "{\"agent_id\":\"nobody-" + run + "\"}");
            if (status != 401) {
                problems.add("POST /admin/agents with token " + token + " answered " + status + ", not 401");
            }
        }
        Credentials first = agent("rotate");
        List<Envelope> events = Workload.events(first.agentId(), "rotate", n);
        int rotateAt = n / 3;
        int revokeAt = n - Math.max(10, n / 100);
        List<ProducerRecord<byte[], byte[]>> signedBefore =
                events.subList(0, 2 * n / 3).stream().map(first::signed).toList();
        long t0 = System.nanoTime();
        p.produce(signedBefore.subList(0, rotateAt));
        Credentials second = p.admin.rotate(first.agentId());
        List<ProducerRecord<byte[], byte[]>> after =
                new ArrayList<>(signedBefore.subList(rotateAt, signedBefore.size()));
        events.subList(signedBefore.size(), revokeAt).forEach(e -> after.add(second.signed(e)));
        p.produce(after);
        awaitStoredAtLeast(first, revokeAt, null);
        p.admin.revoke(second.keyId());
        List<RecordMetadata> late = p.produce(
                events.subList(revokeAt, n).stream().map(second::signed).toList());
        Map<String, String> expectedRejects = new HashMap<>();
        late.forEach(m -> expectedRejects.put(where(m), "forged: key " + second.keyId() + " is revoked"));
        CaseResult r = account(
                "key-rotation",
                "key rotated at 33% (events signed before it delivered after it), new key" + " revoked at "
                        + (100 * revokeAt / n) + "%; admin calls without a named token",
                first,
                ids(events.subList(0, revokeAt)),
                expectedRejects,
                Set.of(second.keyId()),
                t0);
        long issued = p.store.count(
                "SELECT count(*) FROM event_store WHERE type = 'AgentKeyIssued' AND writer = ?"
                        + " AND payload->>'agent_id' = ?",
                "command:" + dev.podium.reliability.process.IngestProcess.ADMIN_TOKEN_NAME,
                first.agentId());
        if (issued != 2) {
            problems.add(issued + " AgentKeyIssued events name the admin token, expected 2 (issue and rotation)");
        }
        problems.addAll(r.problems());
        long records = signedBefore.size() + (revokeAt - signedBefore.size()) + late.size();
        return new CaseResult(
                r.name(),
                r.fault(),
                null,
                records,
                r.expectedAccepted(),
                r.expectedRejected(),
                r.accepted(),
                r.rejected(),
                r.lost(),
                r.duplicated(),
                r.dlq(),
                r.seconds(),
                problems);
    }

    // ---- accounting

    /**
     * Waits until the writer's rows and the expected rejections are all there (or the time is up), then compares them
     * with what was expected, event by event and offset by offset.
     */
    /** {@link #account} for cases outside this class (the hostile corpus). */
    public CaseResult accountFor(
            String name,
            String fault,
            Credentials key,
            Set<String> expectedIds,
            Map<String, String> expectedRejects,
            Set<String> otherKeyIds,
            long t0) {
        return account(name, fault, key, expectedIds, expectedRejects, otherKeyIds, t0);
    }

    CaseResult account(
            String name,
            String fault,
            Credentials key,
            Set<String> expectedIds,
            Map<String, String> expectedRejects,
            Set<String> otherKeyIds,
            long t0) {
        Set<String> keyIds = new HashSet<>(otherKeyIds);
        keyIds.add(key.keyId());
        long deadline =
                System.nanoTime() + Duration.ofSeconds(Math.max(180, n / 50)).toNanos();
        Waits.until(
                () -> p.store.stored(key.agentId()) >= expectedIds.size()
                        && p.store.rejected(keyIds, expectedRejects.keySet()).size() >= expectedRejects.size(),
                deadline,
                POLL);
        double seconds = (System.nanoTime() - t0) / 1e9;
        // Anything arriving late (a duplicate, a second rejection) shows once ingest has committed past what is sent.
        Map<TopicPartition, Long> sentNow = p.eventsEnd();
        Waits.until(() -> p.ingested(sentNow), deadline, POLL);
        List<String> problems = new ArrayList<>();
        Set<String> stored = p.store.storedIds(key.agentId());
        Set<String> missing = new HashSet<>(expectedIds);
        missing.removeAll(stored);
        Set<String> unexpected = new HashSet<>(stored);
        unexpected.removeAll(expectedIds);
        if (!missing.isEmpty()) {
            problems.add(missing.size() + " expected events not stored, e.g. " + first(missing));
        }
        if (!unexpected.isEmpty()) {
            problems.add(unexpected.size() + " events stored that should not be, e.g. " + first(unexpected));
        }
        Map<String, String> rejected = p.store.rejected(keyIds, expectedRejects.keySet());
        long lostRejections = 0;
        for (Map.Entry<String, String> e : expectedRejects.entrySet()) {
            String reason = rejected.get(e.getKey());
            if (reason == null) {
                lostRejections++;
                problems.add(
                        "no rejected_event row for the record at " + e.getKey() + " (expected " + e.getValue() + ")");
            } else if (!reason.startsWith(prefix(e.getValue()))) {
                problems.add(
                        "record at " + e.getKey() + " rejected with '" + reason + "', expected '" + e.getValue() + "'");
            }
        }
        for (String w : rejected.keySet()) {
            if (!expectedRejects.containsKey(w)) {
                problems.add("unexpected rejection at " + w + ": " + rejected.get(w));
            }
        }
        Map<String, Integer> copies = new HashMap<>();
        Map<String, String> dlq = p.deadLetters(copies);
        long onDlq = expectedRejects.keySet().stream().filter(dlq::containsKey).count();
        if (onDlq != expectedRejects.size()) {
            problems.add((expectedRejects.size() - onDlq) + " rejected records missing from podium.events.dlq");
        }
        long duplicated = p.store.duplicated(key.agentId());
        if (problems.size() > 20) {
            List<String> head = new ArrayList<>(problems.subList(0, 20));
            head.add("... and " + (problems.size() - 20) + " more");
            problems = head;
        }
        return new CaseResult(
                name,
                fault,
                key.keyId(),
                0,
                expectedIds.size(),
                expectedRejects.size(),
                stored.size(),
                rejected.size(),
                missing.size() + lostRejections,
                duplicated,
                onDlq,
                seconds,
                problems);
    }

    public static String prefix(String expected) {
        return expected.length() > 90 ? expected.substring(0, 90) : expected;
    }

    // ---- waiting

    void awaitStoredAtLeast(Credentials key, long count, ChildProcess agent) {
        awaitUntil(() -> p.store.stored(key.agentId()), count, agent, "events of " + key.agentId() + " stored");
    }

    void awaitJournaled(ChildProcess agent, long count) {
        awaitUntil(() -> journaled(agent.log()), count, agent, "events journaled by " + agent.name());
    }

    private void awaitUntil(LongSupplier value, long target, ChildProcess agent, String what) {
        long deadline =
                System.nanoTime() + Duration.ofSeconds(Math.max(180, n / 40)).toNanos();
        while (value.getAsLong() < target) {
            if (agent != null && !agent.isAlive() && value.getAsLong() < target) {
                // the agent is done; the rest is ingest's to catch up
                agent = null;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "waited in vain for " + target + " " + what + " (have " + value.getAsLong() + ")");
            }
            Ports.sleep(50);
        }
    }

    static long journaled(Path log) {
        try {
            Matcher m = JOURNALED.matcher(Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1));
            long last = 0;
            while (m.find()) {
                last = Long.parseLong(m.group(1));
            }
            return last;
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private void awaitExit(ChildProcess agent) {
        int code = agent.waitFor(Math.max(600, n / 20));
        if (code != 0) {
            throw new IllegalStateException(agent.name() + " exited " + code + ": " + agent.tail(20));
        }
    }

    Path home(String name) {
        Path h = p.agentHomes.resolve(name + "-" + run);
        try {
            Files.createDirectories(h);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return h;
    }

    static Set<String> ids(List<Envelope> events) {
        return events.stream().map(e -> e.eventId().toString()).collect(Collectors.toSet());
    }

    static String where(RecordMetadata m) {
        return m.partition() + "@" + m.offset();
    }

    /** Not one of the case's events at its own position: an id with other content, or a position under another id. */
    private static boolean isConflict(ProducerRecord<byte[], byte[]> r, Map<String, Long> seqById) {
        try {
            var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.value());
            Long seq = seqById.get(tree.get("event_id").asText());
            return seq == null || seq != tree.get("seq").asLong();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String first(Set<String> s) {
        return s.iterator().next();
    }
}
