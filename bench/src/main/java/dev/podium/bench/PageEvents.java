package dev.podium.bench;

import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Software;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The page benchmark's runs, as agents write them and signed with an enrolled key: 20 benchmarks of 24 comparison keys
 * each (dataloader workers × batch × precision), 50 devices, three framework versions over time, three repetitions per
 * run. Run {@code r} is of key {@code r % 480} on device {@code (r / 480) % 50}, so every series gets one run per 24,000.
 * One device in five loses 15% of its throughput with the last framework version: steps for {@code /history} and
 * {@code /regressions} to find. Deterministic per (prefix, index).
 */
final class PageEvents {

    static final int BENCHMARKS = 20;
    static final int DEVICES = 50;
    static final String[] WORKERS = {"0", "1", "2", "4"};
    static final int[] BATCHES = {8, 16, 32};
    static final String[] PRECISIONS = {"bf16", "fp16"};
    static final String[] VERSIONS = {"2.3.0", "2.4.0", "2.5.1"};
    static final int KEYS = BENCHMARKS * WORKERS.length * BATCHES.length * PRECISIONS.length;
    static final String METRIC = SampleEvents.THROUGHPUT_METRIC;
    /** Loaded runs start at this time, one every 2 s (10,000,000 runs span 231 days). */
    private static final Instant LOADED_FROM = Instant.parse("2025-01-01T00:00:00Z");

    private final EventCodec codec = new EventCodec();
    private final String prefix;
    private final String agentId;
    private final byte[] secret;

    PageEvents(String prefix, String agentId, byte[] secret) {
        this.prefix = prefix;
        this.agentId = agentId;
        this.secret = secret;
    }

    static String benchmark(int b) {
        return String.format(Locale.ROOT, "bench-%02d", b);
    }

    static String device(int d) {
        return String.format(Locale.ROOT, "bench-device-%02d", d);
    }

    static ComparisonKey key(int k) {
        int b = k / (KEYS / BENCHMARKS);
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader_num_workers", WORKERS[k % WORKERS.length]);
        return new ComparisonKey(
                benchmark(b),
                "1",
                "training",
                "model-" + b,
                PRECISIONS[k / 12 % PRECISIONS.length],
                BATCHES[k / 4 % BATCHES.length],
                8,
                null,
                extra);
    }

    static int keyOf(long run) {
        return (int) (run % KEYS);
    }

    static int deviceOf(long run) {
        return (int) (run / KEYS % DEVICES);
    }

    UUID runId(long run) {
        return SampleEvents.uuid(prefix + "-run-" + run);
    }

    /** A loaded run: RunStarted and RunCompleted, at its place on the loaded time axis among {@code total} runs. */
    List<ResultEvents.Signed> loaded(long run, long total) {
        Instant at = LOADED_FROM.plusSeconds(2 * run);
        String version = VERSIONS[(int) Math.min(VERSIONS.length - 1, run * VERSIONS.length / Math.max(1, total))];
        UUID id = runId(run);
        return sign(List.of(
                started(run, id, loadedEventId(id, 1), at, version),
                completed(run, id, loadedEventId(id, 2), 2, at.plusSeconds(600), version)));
    }

    /**
     * A live run as it happens: started now, then {@code progress} progress events, then completed. Its run and event ids
     * are minted as an agent mints them ({@link TimeOrderedIds}); a loaded run's are derived from its number.
     */
    List<ResultEvents.Signed> live(long run, int progress, Instant at) {
        List<Envelope> events = new ArrayList<>(progress + 2);
        String version = VERSIONS[VERSIONS.length - 1];
        UUID id = TimeOrderedIds.next();
        events.add(started(run, id, TimeOrderedIds.next(), at, version));
        for (int p = 1; p <= progress; p++) {
            RunProgress step = new RunProgress(id, 1, p, progress + 1L, "measure", "step " + p);
            events.add(envelope(id, TimeOrderedIds.next(), 1 + p, at, step));
        }
        events.add(completed(run, id, TimeOrderedIds.next(), progress + 2, at, version));
        return sign(events);
    }

    private Envelope started(long run, UUID id, UUID eventId, Instant at, String version) {
        ComparisonKey key = key(keyOf(run));
        Software s = SampleEvents.software();
        Software software = new Software(
                "pytorch", version, s.pythonVersion(), s.libraries(), s.containerImageDigest(), s.workloadCommit());
        return envelope(
                id,
                eventId,
                1,
                at,
                new RunStarted(
                        id,
                        null,
                        null,
                        SampleEvents.host(agentId),
                        List.of(SampleEvents.accelerator(device(deviceOf(run)), 8)),
                        software,
                        SampleEvents.workload(key),
                        key,
                        3,
                        10,
                        SampleEvents.provenance(agentId),
                        null));
    }

    private Envelope completed(long run, UUID id, UUID eventId, long seq, Instant at, String version) {
        int d = deviceOf(run);
        double level = 100 + (d * 7919 % 1000) + noise(run);
        if (d % 5 == 0 && version.equals(VERSIONS[VERSIONS.length - 1])) {
            level *= 0.85;
        }
        List<Double> values = List.of(level * 0.99, level, level * 1.01);
        Metric metric = SampleEvents.throughputMetric(values);
        return envelope(
                id,
                eventId,
                seq,
                at,
                new RunCompleted(
                        id, List.of(metric), SampleEvents.valueChecks(metric, 3, List.of(200.0, 200.0, 200.0)), 600));
    }

    /**
     * The run's own noise, uniform in [0, 20): SplitMix64's finaliser of the run number, so that the runs of one series
     * (every 24,000th) are independent draws, as repeated runs on one host are; a series' noise has no steps of its own.
     */
    static double noise(long run) {
        long z = run + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53 * 20;
    }

    /** The id of a loaded run's event: derived from its stream and sequence number, the same on every load. */
    private static UUID loadedEventId(UUID runId, long seq) {
        return SampleEvents.uuid(StreamId.run(runId).value() + "#" + seq);
    }

    private Envelope envelope(UUID id, UUID eventId, long seq, Instant at, Event payload) {
        return Envelope.of(eventId, StreamId.run(id), seq, agentId, at, payload);
    }

    private List<ResultEvents.Signed> sign(List<Envelope> events) {
        List<ResultEvents.Signed> out = new ArrayList<>(events.size());
        for (Envelope e : events) {
            byte[] value = codec.encode(e);
            out.add(new ResultEvents.Signed(e, e.streamId(), value, EventSigner.sign(value, secret)));
        }
        return out;
    }

    EventCodec codec() {
        return codec;
    }
}
