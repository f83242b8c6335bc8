package dev.podium.reliability.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Metric;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.process.QueryProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
 * and, first, a run under each real key on the real device (no new name: no quota stops it) reporting
 * {@value #MADE_UP_METRICS} made-up metrics beside the real one; every name sorts before the real ones, and every made-up
 * metric is named like a throughput, so that by leaderboard rows they would tie with the real metric and come first. The real data is two other agents' runs of the reference benchmark under
 * {@value #REAL_KEYS} keys on one device. After the flood, {@code /leaderboard} must still show the real benchmark by
 * default, list its keys and metric and show one of each by default, and home must list the benchmark and its device; a control run
 * sent behind the flood must be visible within max(2 s, 3x its quiet time), and ingest must stay ready.
 */
final class CatalogCrowdingCase {

    static final String REAL_BENCHMARK = SampleEvents.REFERENCE_BENCHMARK;
    static final String REAL_DEVICE = SampleEvents.DEVICE_ID;
    static final int REAL_KEYS = 6;
    static final int DEVICES_PER_RUN = 8;
    /** Past a benchmark's list of 100 metrics. */
    static final int MADE_UP_METRICS = 120;

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
        int records = 2 * (REAL_KEYS + benchmarks + keys);
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
                    "%,d completed runs of new benchmarks and %,d of new keys of %s, %d new device ids each; %d made-up"
                            + " metrics on each real key",
                    benchmarks, keys, REAL_BENCHMARK, DEVICES_PER_RUN, MADE_UP_METRICS);
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
        Set<String> metrics = values(real.path("metrics"), "value");
        if (!metrics.contains(SampleEvents.THROUGHPUT_METRIC)) {
            missing.add("/leaderboard of " + REAL_BENCHMARK + " does not offer its metric "
                    + SampleEvents.THROUGHPUT_METRIC + " (" + metrics.size() + " metrics listed)");
        }
        String metric = selected(real.path("metrics"), "value");
        if (!SampleEvents.THROUGHPUT_METRIC.equals(metric)) {
            missing.add("/leaderboard of " + REAL_BENCHMARK + " shows metric " + metric + " by default, not "
                    + SampleEvents.THROUGHPUT_METRIC);
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

    /**
     * The {@code i}th record of the flood: run i / 2's RunStarted, then its RunCompleted; the first {@value #REAL_KEYS}
     * runs are under the real keys with made-up metrics, the others name new benchmarks, keys and devices.
     */
    private ProducerRecord<byte[], byte[]> crowding(Credentials attacker, int i) {
        int run = i / 2;
        String agent = attacker.agentId();
        UUID runId = SampleEvents.uuid(agent + "/crowd/" + run);
        if (run < REAL_KEYS) {
            return attacker.signed(
                    i % 2 == 0
                            ? SampleEvents.runStarted(
                                    runId, agent, REAL_DEVICE, SampleEvents.referenceKey(run), SampleEvents.AT)
                            : withMadeUpMetrics(runId, agent));
        }
        return attacker.signed(naming(agent, runId, run - REAL_KEYS, i % 2 == 1));
    }

    /** A run of a new benchmark, or of a new key of the real benchmark, with new devices: its RunStarted or RunCompleted. */
    private Envelope naming(String agent, UUID runId, int run, boolean completed) {
        if (completed) {
            return SampleEvents.runCompleted(runId, agent, 2, List.of(500.0, 501.0, 502.0));
        }
        ComparisonKey key = run < benchmarks ? newBenchmark(run) : newKeyOfTheRealBenchmark(run);
        List<Accelerator> accelerators = IntStream.range(0, DEVICES_PER_RUN)
                .mapToObj(d -> SampleEvents.accelerator(prefix + "dev-%07d".formatted(run * DEVICES_PER_RUN + d), 1))
                .toList();
        return SampleEvents.envelope(
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
    }

    /** RunCompleted with the real metric and {@value #MADE_UP_METRICS} made-up ones, named alike in every such run. */
    private Envelope withMadeUpMetrics(UUID runId, String agent) {
        List<Double> values = List.of(500.0, 501.0, 502.0);
        Metric real = SampleEvents.throughputMetric(values);
        List<Metric> metrics = new ArrayList<>(List.of(real));
        for (int m = 0; m < MADE_UP_METRICS; m++) {
            metrics.add(new Metric(
                    prefix + "metric-%03d_samples_per_second".formatted(m),
                    real.unit(),
                    real.direction(),
                    real.scope(),
                    real.warmupExcluded(),
                    real.values(),
                    real.statistics()));
        }
        return SampleEvents.envelope(
                StreamId.run(runId),
                2,
                agent,
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(
                        runId,
                        metrics,
                        SampleEvents.valueChecks(real, 3, Collections.nCopies(3, SampleEvents.REPETITION_SECONDS)),
                        SampleEvents.REPETITION_SECONDS * 3));
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
