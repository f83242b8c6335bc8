package dev.podium.reliability.hostile;

import dev.podium.events.Envelope;
import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.fault.CaseResult;
import dev.podium.reliability.fault.Credentials;
import dev.podium.reliability.fault.FaultCases;
import dev.podium.reliability.fault.Platform;
import dev.podium.reliability.fault.Workload;
import dev.podium.reliability.process.Ports;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The hostile corpus through the real pipeline: every kind (repeated once per 5,000 events) at a random place among good
 * neighbours, keyed like its neighbour so it shares its partition. Every bad record must be in rejected_event and on the
 * DLQ with its reason, every good neighbour stored, and ingest still the process it was (not restarted, not crashed).
 */
public final class HostileCase {

    /** Per kind: records made, and what became of them. */
    public record KindResult(
            String group,
            String kind,
            int records,
            int stored,
            int rejected,
            int lost,
            int wrongReason,
            int dlq,
            String reason) {}

    private final Platform p;
    private final FaultCases cases;

    public HostileCase(Platform platform, FaultCases cases) {
        this.p = platform;
        this.cases = cases;
    }

    public CaseResult run(Map<String, KindResult> perKind) {
        int n = cases.events();
        String tag = UUID.randomUUID().toString().substring(0, 6);
        int startsBefore = p.ingest.starts();
        Credentials agent = p.admin.issue("hostile-" + tag);
        Credentials other = p.admin.issue("hostile-other-" + tag);
        Credentials revoked = p.admin.issue("hostile-revoked-" + tag);
        p.admin.revoke(revoked.keyId());
        long t0 = System.nanoTime();

        // First a stored run of the agent's and a run another agent owns, for the conflict and writer kinds.
        List<Envelope> good = Workload.events(agent.agentId(), "hostile", n);
        UUID foreignRun = UUID.randomUUID();
        List<ProducerRecord<byte[], byte[]>> prelude = new ArrayList<>();
        good.subList(0, Workload.RUN_LENGTH).forEach(e -> prelude.add(agent.signed(e)));
        prelude.add(other.signed(SampleEvents.runStarted(
                foreignRun, other.agentId(), SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT)));
        p.produce(prelude);
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (p.store.stored(agent.agentId()) < Workload.RUN_LENGTH || p.store.stored(other.agentId()) < 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the hostile case's first run was not stored");
            }
            Ports.sleep(100);
        }
        HostileCorpus.Context ctx =
                new HostileCorpus.Context(agent, other, revoked, "run/" + foreignRun, good.get(1), tag);

        record Placed(HostileCorpus.Kind kind, HostileCorpus.Bad bad) {}
        List<Placed> bads = new ArrayList<>();
        int reps = Math.max(1, n / 5000);
        for (int r = 0; r < reps; r++) {
            for (HostileCorpus.Kind kind : HostileCorpus.kinds()) {
                kind.make().apply(ctx).forEach(b -> bads.add(new Placed(kind, b)));
            }
        }
        // prelude (one run and the foreign RunStarted) + neighbours + bad records = n records in all
        List<Envelope> neighbours =
                good.subList(Workload.RUN_LENGTH, Math.max(Workload.RUN_LENGTH, n - bads.size() - 1));
        List<ProducerRecord<byte[], byte[]>> sequence =
                new ArrayList<>(neighbours.stream().map(agent::signed).toList());
        List<Object> what = new ArrayList<>(neighbours);
        Random random = new Random(11);
        for (Placed b : bads) {
            int at = random.nextInt(sequence.size() + 1);
            byte[] key = at == 0
                    ? neighbours.get(0).streamId().getBytes(java.nio.charset.StandardCharsets.UTF_8)
                    : sequence.get(at - 1).key();
            ProducerRecord<byte[], byte[]> r = b.bad().record();
            sequence.add(at, new ProducerRecord<>(r.topic(), null, key, r.value(), r.headers()));
            what.add(at, b);
        }
        List<RecordMetadata> sent = p.produce(sequence);

        Set<String> expectedIds = new HashSet<>();
        good.subList(0, Workload.RUN_LENGTH)
                .forEach(e -> expectedIds.add(e.eventId().toString()));
        neighbours.forEach(e -> expectedIds.add(e.eventId().toString()));
        Map<String, String> expectedRejects = new HashMap<>();
        Map<String, List<String>> wheresByKind = new LinkedHashMap<>();
        Map<String, List<String>> storedIdsByKind = new HashMap<>();
        for (int i = 0; i < sequence.size(); i++) {
            if (what.get(i) instanceof Placed b) {
                String where = sent.get(i).partition() + "@" + sent.get(i).offset();
                wheresByKind.computeIfAbsent(b.kind().name(), k -> new ArrayList<>());
                if (b.bad().reason() != null) {
                    expectedRejects.put(where, b.bad().reason());
                    wheresByKind.get(b.kind().name()).add(where);
                } else {
                    expectedIds.add(b.bad().storedId().toString());
                    storedIdsByKind
                            .computeIfAbsent(b.kind().name(), k -> new ArrayList<>())
                            .add(b.bad().storedId().toString());
                }
            }
        }
        Set<String> otherKeys = Set.of(revoked.keyId(), other.keyId());
        CaseResult result = cases.accountFor(
                "hostile",
                bads.size() + " bad records of " + HostileCorpus.kinds().size() + " kinds among "
                        + (neighbours.size() + Workload.RUN_LENGTH) + " good ones",
                agent,
                expectedIds,
                expectedRejects,
                otherKeys,
                t0);
        List<String> problems = new ArrayList<>(result.problems());
        if (p.ingest.starts() != startsBefore || !p.ingest.isAlive()) {
            problems.add("ingest-service crashed or was restarted during the hostile case");
        }

        // Per kind, from the rows themselves.
        Map<String, String> rejected = p.store.rejected(Set.of(agent.keyId()), expectedRejects.keySet());
        Map<String, Integer> copies = new HashMap<>();
        Map<String, String> dlq = p.deadLetters(copies);
        Map<String, HostileCorpus.Kind> kinds = new LinkedHashMap<>();
        HostileCorpus.kinds().forEach(k -> kinds.put(k.name(), k));
        Map<String, List<String>> inCorpusOrder = new LinkedHashMap<>();
        kinds.keySet().forEach(k -> inCorpusOrder.put(k, wheresByKind.getOrDefault(k, List.of())));
        for (Map.Entry<String, List<String>> e : inCorpusOrder.entrySet()) {
            List<String> ids = storedIdsByKind.getOrDefault(e.getKey(), List.of());
            Set<String> storedNow = p.store.storedAmong(new HashSet<>(ids));
            int rej = 0;
            int wrong = 0;
            int lost = ids.size() - storedNow.size();
            int onDlq = 0;
            String reason = null;
            for (String where : e.getValue()) {
                String actual = rejected.get(where);
                if (actual == null) {
                    lost++;
                    continue;
                }
                rej++;
                reason = reason == null ? actual : reason;
                if (!actual.startsWith(FaultCases.prefix(expectedRejects.get(where)))) {
                    wrong++;
                }
                if (dlq.containsKey(where)) {
                    onDlq++;
                }
            }
            perKind.put(
                    e.getKey(),
                    new KindResult(
                            kinds.get(e.getKey()).group(),
                            e.getKey(),
                            e.getValue().size() + ids.size(),
                            storedNow.size(),
                            rej,
                            lost,
                            wrong,
                            onDlq,
                            reason == null ? "(stored)" : reason));
        }
        return new CaseResult(
                result.name(),
                result.fault(),
                result.keyId(),
                sequence.size() + prelude.size(),
                result.expectedAccepted(),
                result.expectedRejected(),
                result.accepted(),
                result.rejected(),
                result.lost(),
                result.duplicated(),
                result.dlq(),
                result.seconds(),
                problems);
    }
}
