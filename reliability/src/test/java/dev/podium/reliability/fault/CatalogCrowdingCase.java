package dev.podium.reliability.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.process.QueryProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An enrolled agent sends completed runs (RunStarted and RunCompleted: counted results) naming thousands of new
 * benchmarks, thousands of new comparison keys of the real benchmark and {@value #DEVICES_PER_RUN} new device ids a run,
 * every name sorting before the real ones. The real data is two other agents' runs of the reference benchmark under
 * {@value #REAL_KEYS} keys on one device. After the flood, {@code /leaderboard} must still show the real benchmark by
 * default, list its keys and show one of them by default, and home must list the benchmark and its device; a control run
 * sent behind the flood must be visible within max(2 s, 3x its quiet time), and ingest must stay ready.
 */
final class CatalogCrowdingCase {

    static final String REAL_BENCHMARK = SampleEvents.REFERENCE_BENCHMARK;
    static final String REAL_DEVICE = SampleEvents.DEVICE_ID;
    static final int REAL_KEYS = 6;
    static final int DEVICES_PER_RUN = 8;
    private static final int MOST_CONTROL_RUNS = 5;
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Platform p;
    private final FaultCases cases;
    private final QueryOnDemand query;
    private final int benchmarks;
    private final int keys;
    /** Before every real name ("intel-…", "reference-…", "benchmark=reference-finetune;benchmark_version=1…"). */
    private final String prefix = "0crowd-" + UUID.randomUUID().toString().substring(0, 6) + "-";

    /** Over the lists' 1,000 benchmarks and devices and a benchmark's 2,000 keys in the ci tier; ten times that in full. */
    CatalogCrowdingCase(Platform p, FaultCases cases, QueryOnDemand query, String tier) {
        this.p = p;
        this.cases = cases;
        this.query = query;
        int scale = tier.equals("full") ? 10 : 1;
        this.benchmarks = 1100 * scale;
        this.keys = 2100 * scale;
    }

    CaseResult run(Map<String, String> figures) {
        VolumeCheck check = new VolumeCheck();
        long t0 = System.nanoTime();
        sendRealData();
        check.awaitIngested(p, "the real data");
        QueryProcess q = query.get();
        realDataMissing(q).forEach(m -> check.problem("before the flood already: " + m));
        Credentials attacker = cases.agent("crowder");
        int records = 2 * (benchmarks + keys);
        try (ControlRuns controls = new ControlRuns(p, cases.agent("crowd-control"))) {
            try (ReadinessWatch ready = new ReadinessWatch(p.ingest)) {
                double quiet = controls.quiet();
                p.produce(records, i -> crowding(attacker, i));
                var end = p.eventsEnd();
                check.controlRuns(quiet, controls.during(() -> !p.ingested(end), MOST_CONTROL_RUNS));
                check.awaitIngested(p, "the crowding runs");
                check.readiness(ready);
            }
            List<String> missing = realDataMissing(q);
            missing.forEach(m -> check.problem("after the flood: " + m));
            check.figure(
                    missing.isEmpty() ? "real data still shown" : "real data not shown in " + missing.size() + " ways");
            check.attacker(p, attacker, records);
            String fault = String.format(
                    "%,d completed runs of new benchmarks and %,d of new keys of %s, %d new device ids each",
                    benchmarks, keys, REAL_BENCHMARK, DEVICES_PER_RUN);
            CaseResult r = check.result(
                    cases,
                    "catalog-crowding",
                    fault,
                    controls,
                    Map.of(),
                    records + controls.ids().size(),
                    t0);
            figures.put(r.name(), check.figures());
            return r;
        }
    }

    /** Two agents' completed runs under each real key, on the real device. */
    private void sendRealData() {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (String agent : List.of("crowd-real-a", "crowd-real-b")) {
            Credentials real = cases.agent(agent);
            for (int w = 0; w < REAL_KEYS; w++) {
                SampleEvents.completedRun(
                                SampleEvents.uuid(real.agentId() + "/real/" + w),
                                real.agentId(),
                                REAL_DEVICE,
                                SampleEvents.referenceKey(w),
                                SampleEvents.AT,
                                List.of(500.0 + w, 501.0 + w, 502.0 + w))
                        .forEach(e -> records.add(real.signed(e)));
            }
        }
        p.produce(records);
    }

    /** What of the real data {@code /leaderboard} and home no longer show (nothing when all is there). */
    private List<String> realDataMissing(QueryProcess q) {
        List<String> missing = new ArrayList<>();
        String shown = selected(json(q, "/api/v1/leaderboard", missing).path("benchmarks"), "value");
        if (!REAL_BENCHMARK.equals(shown)) {
            missing.add("/leaderboard shows " + shown + " by default, not " + REAL_BENCHMARK);
        }
        JsonNode real = json(q, "/api/v1/leaderboard?benchmark=" + REAL_BENCHMARK, missing);
        Set<String> listed = values(real.path("keys"), "keyId");
        Set<String> realKeys = realKeys();
        long realListed = realKeys.stream().filter(listed::contains).count();
        if (realListed < REAL_KEYS) {
            missing.add("/leaderboard of " + REAL_BENCHMARK + " lists " + realListed + " of its " + REAL_KEYS
                    + " real keys (" + listed.size() + " keys listed)");
        }
        String key = selected(real.path("keys"), "keyId");
        if (!realKeys.contains(key)) {
            missing.add("/leaderboard of " + REAL_BENCHMARK + " shows key " + key + " by default, not a real one");
        }
        JsonNode home = json(q, "/api/v1/home", missing);
        Set<String> homeBenchmarks = new HashSet<>();
        home.path("benchmarks").forEach(b -> homeBenchmarks.add(b.asText()));
        if (!homeBenchmarks.contains(REAL_BENCHMARK)) {
            missing.add("home does not list " + REAL_BENCHMARK + " (" + homeBenchmarks.size() + " listed)");
        }
        if (!values(home.path("devices"), "deviceId").contains(REAL_DEVICE)) {
            missing.add("home does not list " + REAL_DEVICE);
        }
        for (String page : List.of("/", "/leaderboard")) {
            int status = q.get(page, PAGE_TIMEOUT).status();
            if (status != 200) {
                missing.add(page + " answered " + status);
            }
        }
        return missing;
    }

    private static Set<String> realKeys() {
        Set<String> out = new HashSet<>();
        IntStream.range(0, REAL_KEYS)
                .forEach(w -> out.add(SampleEvents.referenceKey(w).id()));
        return out;
    }

    /** The JSON of an API answer; an empty object (and what it answered, in {@code missing}) unless it is a 200. */
    private static JsonNode json(QueryProcess q, String path, List<String> missing) {
        QueryProcess.Page page = q.get(path, PAGE_TIMEOUT);
        try {
            if (page.status() == 200) {
                return JSON.readTree(page.body());
            }
        } catch (IOException e) {
            missing.add(path + " is not JSON: " + e.getMessage());
            return JSON.createObjectNode();
        }
        missing.add(path + " answered " + page.status());
        return JSON.createObjectNode();
    }

    private static String selected(JsonNode options, String field) {
        for (JsonNode o : options) {
            if (o.path("selected").asBoolean()) {
                return o.path(field).asText();
            }
        }
        return null;
    }

    private static Set<String> values(JsonNode items, String field) {
        Set<String> out = new HashSet<>();
        items.forEach(i -> out.add(i.path(field).asText()));
        return out;
    }

    /** The {@code i}th record of the flood: run i / 2's RunStarted, then its RunCompleted. */
    private ProducerRecord<byte[], byte[]> crowding(Credentials attacker, int i) {
        int run = i / 2;
        String agent = attacker.agentId();
        UUID runId = SampleEvents.uuid(agent + "/crowd/" + run);
        if (i % 2 == 1) {
            return attacker.signed(SampleEvents.runCompleted(runId, agent, 2, List.of(500.0, 501.0, 502.0)));
        }
        ComparisonKey key = run < benchmarks ? newBenchmark(run) : newKeyOfTheRealBenchmark(run);
        List<Accelerator> accelerators = IntStream.range(0, DEVICES_PER_RUN)
                .mapToObj(d -> SampleEvents.accelerator(prefix + "dev-%07d".formatted(run * DEVICES_PER_RUN + d), 1))
                .toList();
        Envelope started = SampleEvents.envelope(
                StreamId.run(runId),
                1,
                agent,
                SampleEvents.AT,
                new RunStarted(
                        runId,
                        null,
                        null,
                        SampleEvents.host(agent),
                        accelerators,
                        SampleEvents.software(),
                        SampleEvents.workload(key),
                        key,
                        3,
                        10,
                        SampleEvents.provenance(agent),
                        null));
        return attacker.signed(started);
    }

    private ComparisonKey newBenchmark(int run) {
        return new ComparisonKey(
                prefix + "bench-%06d".formatted(run), "1", "training", "crowd", "fp32", 32, 1, 128, new TreeMap<>());
    }

    /** A key of the real benchmark whose canonical text sorts before the real keys' (version 0). */
    private ComparisonKey newKeyOfTheRealBenchmark(int run) {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader_num_workers", "0");
        extra.put("crowd", prefix + run);
        return new ComparisonKey(
                REAL_BENCHMARK, "0", "training", "tiny-transformer-classifier", "fp32", 32, 1, 128, extra);
    }
}
