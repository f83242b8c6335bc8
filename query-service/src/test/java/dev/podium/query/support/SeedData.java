package dev.podium.query.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Host;
import dev.podium.events.model.Sample;
import dev.podium.events.model.Software;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.model.Workload;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.PublishedClaim;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The projection rows the tests read: the published BridgeTower figures and claims of seeds.md section 1, measured runs on
 * an H200 under two framework versions, and hostile strings from an agent wherever an agent can put one.
 */
public final class SeedData {

    public static final String XSS_SCRIPT = "<script>document.title='pwned';window.pwned=1</script>";
    public static final String XSS_IMG = "<img src=x onerror=\"document.title='pwned';window.pwned=1\">";
    public static final String HOSTILE_AGENT = "agent-" + XSS_SCRIPT;
    /** Text outside ASCII, with a character beyond the Basic Multilingual Plane. */
    public static final String UNICODE = "Gaudi\u00b2 \u2014 \u201cfast\u201d \uD83D\uDE80 \u00fcn\u00efcode";

    public static final String HOSTILE_BENCHMARK = "zz-" + XSS_IMG;
    public static final String H200 = "nvidia-h200-sxm-141gb";
    public static final String MEASURED_BENCHMARK = PublishedSeeds.BENCHMARK;
    public static final UUID RUN_A = UUID.fromString("0193a0c0-0000-7000-8000-00000000000a");
    public static final UUID RUN_B = UUID.fromString("0193a0c0-0000-7000-8000-00000000000b");
    public static final UUID RUN_C = UUID.fromString("0193a0c0-0000-7000-8000-00000000000c");
    public static final UUID RUN_HOSTILE = UUID.fromString("0193a0c0-0000-7000-8000-0000000000ff");
    public static final String LOCAL_BENCHMARK = "podium-reference";
    public static final String LOCAL_DEVICE = "cpu-amd-epyc";
    public static final UUID RUN_LOCAL = UUID.fromString("0193a0c0-0000-7000-8000-0000000000c0");
    public static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");

    private static final ObjectMapper JSON = EventCodec.newMapper();

    private SeedData() {}

    /** The key of the local measured runs: one H200, workers as given. */
    public static ComparisonKey measuredKey(String workers) {
        return new ComparisonKey(
                MEASURED_BENCHMARK,
                "1.0",
                "fine-tuning",
                "BridgeTower/bridgetower-large-itm-mlm-itc",
                "bf16",
                16,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", workers, "dataloader", "default")));
    }

    public static void load(Connection c) throws SQLException {
        c.setAutoCommit(false);
        Set<String> benchmarks = new TreeSet<>(List.of(HOSTILE_BENCHMARK, LOCAL_BENCHMARK));
        PublishedSeeds.all().stream()
                .filter(p -> p.key() != null)
                .forEach(p -> benchmarks.add(p.key().benchmark()));
        for (String b : benchmarks) {
            update(c, "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, 1) ON CONFLICT DO NOTHING", b);
        }
        Set<String> devices = new TreeSet<>(List.of(H200, LOCAL_DEVICE));
        PublishedSeeds.all().stream().filter(p -> p.deviceId() != null).forEach(p -> devices.add(p.deviceId()));
        for (String d : devices) {
            var m = DeviceAliases.byId(d).orElse(new dev.podium.events.device.DeviceModel(d, null, d, true));
            update(
                    c,
                    "INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, ?, ?, 1)",
                    d,
                    m.vendor(),
                    m.label());
        }
        published(c);
        measured(c);
        local(c);
        hostile(c);
        StatsSeeds.load(c);
        // Ingest stores runs in the order they arrive; these arrive in the order they started.
        update(
                c,
                "UPDATE proj_run r SET started_position = o.position FROM (SELECT run_id, "
                        + "row_number() OVER (ORDER BY started_at, run_id) AS position FROM proj_run) o WHERE r.run_id = o.run_id");
        refreshPageCells(c);
        c.commit();
    }

    private static void published(Connection c) throws SQLException {
        long position = 100;
        for (PublishedClaim p : PublishedSeeds.all()) {
            String benchmark = p.key() == null ? null : p.key().benchmark();
            if (p.key() != null) {
                key(c, p.key());
            }
            String kind = p.value() instanceof ClaimValue.Exact
                    ? "value"
                    : p.value() instanceof ClaimValue.Range
                            ? "range"
                            : p.value() instanceof ClaimValue.Bound ? "bound" : "n/a";
            Double value = p.value() instanceof ClaimValue.Exact e ? e.value() : null;
            update(
                    c,
                    "INSERT INTO proj_published_claim (source, claim_id, is_ratio, device_id, device_label, device_count, benchmark, "
                            + "key_id, metric, unit, direction, value_kind, value, low, high, claim, position) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?::jsonb, ?)",
                    p.source(),
                    p.claimId(),
                    p.isRatio(),
                    p.deviceId(),
                    p.deviceLabel(),
                    p.deviceCount(),
                    benchmark,
                    p.key() == null ? null : p.key().id(),
                    p.metric(),
                    p.unit(),
                    p.direction().name(),
                    kind,
                    value,
                    json(p),
                    position++);
            if (!p.isRatio() && value != null && p.key() != null && p.deviceId() != null) {
                update(
                        c,
                        "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                                + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'published', ?, ?, ?, 1, 1, ?, ?, ?, ?, 0, NULL)",
                        p.key().id(),
                        p.metric(),
                        p.deviceId(),
                        benchmark,
                        p.unit(),
                        p.direction().name(),
                        value,
                        value,
                        value,
                        value);
            }
        }
    }

    /**
     * Three H200 runs under workers=0: A and B with torch 2.4.0, C with torch 2.5.1; one under workers=2. The leaderboard
     * row for workers=0 aggregates A, B and C.
     */
    private static void measured(Connection c) throws SQLException {
        ComparisonKey w0 = measuredKey("0");
        ComparisonKey w2 = measuredKey("2");
        key(c, w0);
        key(c, w2);
        run(
                c,
                RUN_A,
                w0,
                "2.4.0",
                List.of(30.1, 30.4, 29.9),
                "agent-h200-a",
                "gpu-node-1",
                Map.of("dataloader_num_workers", "0"),
                0);
        run(
                c,
                RUN_B,
                w0,
                "2.4.0",
                List.of(31.0, 30.8, 31.2),
                "agent-h200-a",
                "gpu-node-1",
                Map.of("dataloader_num_workers", "0"),
                1);
        run(
                c,
                RUN_C,
                w0,
                "2.5.1",
                List.of(34.0, 34.2, 33.8),
                "agent-h200-a",
                "gpu-node-1",
                Map.of("dataloader_num_workers", "0"),
                2);
        run(
                c,
                UUID.fromString("0193a0c0-0000-7000-8000-00000000000d"),
                w2,
                "2.5.1",
                List.of(52.0, 52.5, 51.5),
                "agent-h200-a",
                "gpu-node-1",
                Map.of("dataloader_num_workers", "2"),
                3);
        List<Double> means = List.of(30.133333333333333, 31.0, 34.0);
        Statistics s = Statistics.of(means);
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, 'samples/s', 'HIGHER_IS_BETTER', 3, 9, ?, ?, ?, 34.0, ?, ?)",
                w0.id(),
                PublishedSeeds.METRIC,
                H200,
                MEASURED_BENCHMARK,
                s.mean(),
                s.ci95Low(),
                s.ci95High(),
                s.cv(),
                Timestamp.from(T0));
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, 'samples/s', 'HIGHER_IS_BETTER', 1, 3, 52.0, 52.0, 52.0, 52.0, 0, ?)",
                w2.id(),
                PublishedSeeds.METRIC,
                H200,
                MEASURED_BENCHMARK,
                Timestamp.from(T0));
    }

    /** The key of a local reference run on the CPU; {@code note}, when not null, is one more extra parameter. */
    public static ComparisonKey localKey(String workers, String note) {
        Map<String, String> extra = new TreeMap<>(Map.of("dataloader_num_workers", workers));
        if (note != null) {
            extra.put("note", note);
        }
        return new ComparisonKey(
                LOCAL_BENCHMARK, "1", "training", "podium-tiny-vl-tiny", "fp32", 8, 1, 64, new TreeMap<>(extra));
    }

    /**
     * The local reference sweep as {@code ./podium up} leaves it: workers 0, 1 and 2 on the CPU with train_samples_per_second
     * (168.0, 163.8, 136.5) and train_loss, which sorts first; and a second setting whose extra parameter is hostile.
     */
    private static void local(Connection c) throws SQLException {
        String[][] sweep = {
            {"0", "168.0", "160.0", "176.0"}, {"1", "163.8", "150.0", "177.6"}, {"2", "136.5", "130.0", "143.0"}
        };
        int i = 0;
        for (String[] p : sweep) {
            ComparisonKey k = localKey(p[0], null);
            key(c, k);
            UUID run = i == 0
                    ? RUN_LOCAL
                    : new UUID(RUN_LOCAL.getMostSignificantBits(), RUN_LOCAL.getLeastSignificantBits() + i);
            localRun(c, run, k, true, i++);
            double mean = Double.parseDouble(p[1]);
            double low = Double.parseDouble(p[2]);
            double high = Double.parseDouble(p[3]);
            localRow(c, k, PublishedSeeds.METRIC, "samples/s", "HIGHER_IS_BETTER", mean, low, high);
            localResult(c, run, k, PublishedSeeds.METRIC, "samples/s", "HIGHER_IS_BETTER", mean, low, high);
            localRow(c, k, "train_loss", "", "LOWER_IS_BETTER", 2.1, 2.0, 2.2);
            localResult(c, run, k, "train_loss", "", "LOWER_IS_BETTER", 2.1, 2.0, 2.2);
        }
        // A second setting, with a hostile extra parameter; its workers=1 run failed a validity check, so ingest wrote
        // no leaderboard row for it, but the local page still shows it, marked.
        for (String[] p : new String[][] {{"0", "100.0", "true"}, {"1", "120.0", "false"}}) {
            ComparisonKey k = localKey(p[0], XSS_IMG);
            key(c, k);
            boolean valid = Boolean.parseBoolean(p[2]);
            UUID run = new UUID(RUN_LOCAL.getMostSignificantBits(), RUN_LOCAL.getLeastSignificantBits() + 10 + i);
            localRun(c, run, k, valid, i++);
            double v = Double.parseDouble(p[1]);
            if (valid) {
                localRow(c, k, PublishedSeeds.METRIC, "samples/s", "HIGHER_IS_BETTER", v, v - 1, v + 1);
            }
            localResult(c, run, k, PublishedSeeds.METRIC, "samples/s", "HIGHER_IS_BETTER", v, v - 1, v + 1);
        }
    }

    private static void localRun(Connection c, UUID run, ComparisonKey k, boolean valid, int order)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, started_at, valid, "
                        + "started_position, last_position) VALUES (?, ?, 'agent-local', 'completed', ?, ?, ?, 1, ?, ?, 1, 3)",
                run,
                "run/" + run,
                LOCAL_BENCHMARK,
                k.id(),
                LOCAL_DEVICE,
                Timestamp.from(T0.plusSeconds(36000 - order)),
                valid);
    }

    private static void localResult(
            Connection c,
            UUID run,
            ComparisonKey k,
            String metric,
            String unit,
            String direction,
            double mean,
            double low,
            double high)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, "
                        + "stdev, min, max, ci95_low, ci95_high, cv) VALUES (?, ?, ?, ?, 'SYSTEM', true, ?, ?, 3, ?, ?, 1, ?, ?, ?, ?, 0.02)",
                run,
                metric,
                unit,
                direction,
                k.id(),
                LOCAL_DEVICE,
                mean,
                mean,
                low,
                high,
                low,
                high);
    }

    private static void localRow(
            Connection c,
            ComparisonKey k,
            String metric,
            String unit,
            String direction,
            double mean,
            double low,
            double high)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, ?, ?, 1, 3, ?, ?, ?, ?, 0.02, ?)",
                k.id(),
                metric,
                LOCAL_DEVICE,
                LOCAL_BENCHMARK,
                unit,
                direction,
                mean,
                low,
                high,
                mean,
                Timestamp.from(T0));
    }

    /** A run whose agent put HTML and script into every string it controls. */
    private static void hostile(Connection c) throws SQLException {
        ComparisonKey k = new ComparisonKey(
                HOSTILE_BENCHMARK,
                XSS_SCRIPT,
                XSS_IMG,
                XSS_SCRIPT,
                "fp32",
                1,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", "0", "note", XSS_IMG)));
        key(c, k);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("dataloader_num_workers", "0");
        params.put("comment", XSS_SCRIPT);
        params.put("link", "javascript:alert(1)");
        params.put("caption", UNICODE);
        run(c, RUN_HOSTILE, k, XSS_IMG, List.of(10.0, 11.0, 12.0), HOSTILE_AGENT, XSS_IMG, params, 4);
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, ?, 'HIGHER_IS_BETTER', 1, 3, 11.0, 8.5, 13.5, 12.0, 0.09, ?)",
                k.id(),
                PublishedSeeds.METRIC,
                H200,
                HOSTILE_BENCHMARK,
                XSS_SCRIPT,
                Timestamp.from(T0));
        // A step in the hostile run's history, older than every other step, with the agent's strings and a control
        // character.
        update(
                c,
                "INSERT INTO proj_change_point (key_id, metric, device_id, run_id, kind, benchmark, unit, level_before, level_after, "
                        + "point_index, started_at, version_before, version_after) VALUES (?, ?, ?, ?, 'regression', ?, ?, 12, 10, 3, ?, ?, ?)",
                k.id(),
                PublishedSeeds.METRIC,
                XSS_IMG,
                RUN_HOSTILE,
                HOSTILE_BENCHMARK,
                XSS_SCRIPT,
                Timestamp.from(T0.minusSeconds(60L * 86400)),
                XSS_SCRIPT,
                XSS_IMG + "\u0007" + UNICODE);
        update(
                c,
                "INSERT INTO proj_history (key_id, metric, device_id, benchmark, points, sigma) VALUES (?, ?, ?, ?, 6, 2.0 / 9)",
                k.id(),
                PublishedSeeds.METRIC,
                XSS_IMG,
                HOSTILE_BENCHMARK);
        update(
                c,
                "INSERT INTO proj_agent (agent_id, pool, agent_version, hostname, registered_at, last_position) VALUES (?, ?, ?, ?, ?, 1)",
                HOSTILE_AGENT,
                XSS_IMG,
                XSS_SCRIPT,
                XSS_IMG,
                Timestamp.from(T0));
        update(
                c,
                "INSERT INTO agent_status (agent_id, pool, state, current_job_id, current_run_id, device_id, hostname, last_heartbeat_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, now() - interval '1 hour')",
                HOSTILE_AGENT,
                XSS_IMG,
                XSS_SCRIPT,
                UUID.fromString("0193a0c0-0000-7000-8000-0000000000aa"),
                RUN_HOSTILE,
                H200,
                XSS_IMG);
        update(
                c,
                "INSERT INTO proj_agent (agent_id, pool, agent_version, hostname, registered_at, last_position) VALUES (?, ?, ?, ?, ?, 1)",
                "agent-h200-a",
                "h200-pool",
                "0.1.0",
                "gpu-node-1",
                Timestamp.from(T0));
        update(
                c,
                "INSERT INTO agent_status (agent_id, pool, state, device_id, hostname, last_heartbeat_at) VALUES (?, ?, 'idle', ?, ?, now())",
                "agent-h200-a",
                "h200-pool",
                H200,
                "gpu-node-1");
    }

    private static void run(
            Connection c,
            UUID runId,
            ComparisonKey key,
            String frameworkVersion,
            List<Double> values,
            String agent,
            String hostname,
            Map<String, String> params,
            int order)
            throws SQLException {
        Instant started = T0.plusSeconds(3600L * order);
        Host host = new Host(
                hostname,
                "machine-" + order,
                "Intel(R) Xeon(R) Platinum 8480+",
                2,
                112,
                224,
                2L << 40,
                "Ubuntu 22.04",
                "5.15.0",
                1);
        Accelerator acc =
                new Accelerator("NVIDIA", "NVIDIA H200", H200, 141L << 30, 1, 1, "NVLink", "550.54", null, "CUDA 12.4");
        Software sw = new Software(
                "pytorch", frameworkVersion, "3.11", Map.of("transformers", "4.44.0"), "sha256:abc", "deadbeef");
        Workload w = new Workload(
                key.benchmark(),
                key.benchmarkVersion(),
                key.scenario(),
                key.model(),
                "jnlpba",
                params,
                "python train.py --token=[REDACTED]");
        List<ValidityCheck> validity = List.of(
                new ValidityCheck("min_repetitions", true, "3 of 3"),
                new ValidityCheck("cv_below_5_percent", true, agent.equals(HOSTILE_AGENT) ? XSS_IMG : "ok"));
        String stream = "run/" + runId;
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, host_key, workload, "
                        + "software, accelerators, host, started_at, finished_at, duration_seconds, validity, valid, started_position, last_position) "
                        + "VALUES (?, ?, ?, 'completed', ?, ?, ?, 1, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, 600, ?::jsonb, true, 1, 3)",
                runId,
                stream,
                agent,
                key.benchmark(),
                key.id(),
                H200,
                host.machineId(),
                json(w),
                json(sw),
                json(List.of(acc)),
                json(host),
                Timestamp.from(started),
                Timestamp.from(started.plusSeconds(600)),
                json(validity));
        Statistics s = Statistics.of(values);
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, stdev, "
                        + "min, max, ci95_low, ci95_high, cv, raw_values) VALUES (?, ?, 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                runId,
                PublishedSeeds.METRIC,
                key.id(),
                H200,
                s.n(),
                s.mean(),
                s.median(),
                s.stdev(),
                s.min(),
                s.max(),
                s.ci95Low(),
                s.ci95High(),
                s.cv(),
                c.createArrayOf("float8", values.toArray()));
        List<Sample> steps = new ArrayList<>();
        List<Sample> cpu = new ArrayList<>();
        List<Sample> gpu = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            steps.add(new Sample(i * 10, values.get(i / 20) + (i % 5) * 0.1, i / 20, null));
            cpu.add(new Sample(i * 10, 95 - (i % 3), null, null));
            gpu.add(new Sample(i * 10, 40 + (i % 7), null, 0));
        }
        SeriesSeeds.series(c, runId, "STEP_THROUGHPUT", agent.equals(HOSTILE_AGENT) ? XSS_SCRIPT : "samples/s", steps);
        SeriesSeeds.series(c, runId, "CPU_UTILISATION", "%", cpu);
        SeriesSeeds.series(c, runId, "ACCELERATOR_UTILISATION", "%", gpu);
        String note = agent.equals(HOSTILE_AGENT) ? XSS_SCRIPT : "ok";
        String[] types = {"RunStarted", "MetricSampled", "RunCompleted"};
        String[] summaries = {
            cut(key.benchmark() + ", key " + key.label() + "; devices " + H200 + " ×1; 3 repetitions; note " + note),
            "STEP_THROUGHPUT in " + note + ": 60 samples, t 0.0-590.0 s",
            "1 metrics: " + PublishedSeeds.METRIC + "; 2 of 2 checks passed; 600.0 s"
        };
        for (int i = 0; i < types.length; i++) {
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("run_id", runId.toString());
            payload.put("note", note);
            update(
                    c,
                    "INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, occurred_at, payload, payload_hash) "
                            + "VALUES (?, ?, ?, ?, 1, ?, ?, ?::jsonb, 'h')",
                    UUID.randomUUID(),
                    stream,
                    (long) (i + 1),
                    types[i],
                    agent,
                    Timestamp.from(started.plusSeconds(i * 300L)),
                    json(payload));
            // The row ingest's RunEventProjection writes beside each run event.
            update(
                    c,
                    "INSERT INTO proj_run_event (run_id, seq, position, type, schema_version, writer, occurred_at, "
                            + "recorded_at, summary) SELECT ?, seq, position, type, schema_version, writer, occurred_at, "
                            + "recorded_at, ? FROM event_store WHERE stream_id = ? AND seq = ?",
                    runId,
                    summaries[i],
                    stream,
                    (long) (i + 1));
        }
        update(c, "INSERT INTO proj_run_event_count (run_id, events) VALUES (?, ?)", runId, (long) types.length);
    }

    /** A summary as ingest cuts it: 200 characters at most. */
    private static String cut(String summary) {
        return summary.length() <= 200 ? summary : summary.substring(0, 199) + "…";
    }

    private static void key(Connection c, ComparisonKey k) throws SQLException {
        update(
                c,
                "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb) ON CONFLICT DO NOTHING",
                k.id(),
                k.benchmark(),
                k.canonical(),
                json(k.dimensions()));
    }

    /**
     * Recomputes the read models ingest derives from runs, results and leaderboard rows (the functions of migrations V85,
     * V88, V101 and V113, which ingest calls after a rebuild), for fixtures that write those directly.
     */
    public static void refreshPageCells(Connection c) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_page_cells()");
            s.execute("SELECT podium_refresh_all_metric_keys()");
            s.execute("SELECT podium_refresh_all_rank(), podium_refresh_all_rank_metrics()");
        }
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
