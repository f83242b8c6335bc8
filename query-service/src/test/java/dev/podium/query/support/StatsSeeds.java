package dev.podium.query.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.Statistics;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Rows for the statistics features, under their own benchmark {@value #BENCHMARK}, all before {@link SeedData#T0} so
 * the other pages' recent runs stay as they were:
 * <ul>
 * <li>an H200 history of 30 valid runs on one accelerator: about 100 samples/s under torch 2.4.0, then from run 20 about
 *     90 under torch 2.5.1 (a regression);</li>
 * <li>three valid A100 runs under the same key with known per-repetition values and 400 W of power samples, and one
 *     A100 run that failed a validity check (20 samples/s), its A100 capped at 250 W of a 400 W default;</li>
 * <li>an 8-accelerator key where the H200 system does 640 samples/s over three runs (scaling efficiency against one
 * accelerator, and its verdict against linear scaling).</li>
 * </ul>
 */
public final class StatsSeeds {

    public static final String BENCHMARK = "sim-trust";
    public static final String METRIC = "train_samples_per_second";
    public static final String A100 = PublishedSeeds.A100;
    public static final String H200 = SeedData.H200;
    public static final int STEP_AT = 20;
    /** The method ingest's step detector describes itself with. */
    public static final String METHOD =
            "penalised least-squares segmentation (optimal partitioning), penalty max(4.0·ln n, 30) "
                    + "in units of σ², σ from the MAD of first differences, segments of at least 3 points";

    public static final double[][] A100_RUNS = {{50.1, 49.8, 50.3}, {50.6, 50.2, 49.9}, {49.7, 50.0, 50.4}};
    public static final UUID FAILING_RUN = UUID.fromString("0193a0c0-0000-7000-8000-0000000005ff");
    /** The A100 runs' power samples. */
    private static final double A100_WATTS = 400;

    private static final Instant START = SeedData.T0.minusSeconds(40L * 86400);
    private static final ObjectMapper JSON = EventCodec.newMapper();
    /** Each device's driver: the sides of the H200/A100 ratio differ in it, and in nothing else but the framework. */
    public static final Map<String, String> DRIVERS = Map.of(H200, "550.54.15", A100, "535.104.05");

    private StatsSeeds() {}

    public static ComparisonKey key(int accelerators) {
        return new ComparisonKey(
                BENCHMARK, "1", "training", "sim-model", "bf16", 32, accelerators, null, new TreeMap<>());
    }

    /** The H200 history's run means: a deterministic wobble of ±0.4 around 100, then 90 from run {@link #STEP_AT}. */
    public static double historyMean(int i) {
        return (i < STEP_AT ? 100 : 90) + 0.4 * Math.sin(i * 1.7);
    }

    public static UUID historyRun(int i) {
        return UUID.fromString(String.format("0193a0c0-0000-7000-8000-0000000005%02d", i));
    }

    static void load(Connection c) throws SQLException {
        update(
                c,
                "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, 1) ON CONFLICT DO NOTHING",
                BENCHMARK);
        ComparisonKey one = key(1);
        ComparisonKey eight = key(8);
        for (ComparisonKey k : List.of(one, eight)) {
            update(
                    c,
                    "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb) ON CONFLICT DO NOTHING",
                    k.id(),
                    k.benchmark(),
                    k.canonical(),
                    json(k.dimensions()));
        }
        List<Double> h200Means = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            double m = historyMean(i);
            h200Means.add(m);
            run(
                    c,
                    historyRun(i),
                    one,
                    H200,
                    i < STEP_AT ? "2.4.0" : "2.5.1",
                    new double[] {m - 0.5, m, m + 0.5},
                    true,
                    i * 86400L);
        }
        List<Double> a100Means = new ArrayList<>();
        for (int i = 0; i < A100_RUNS.length; i++) {
            UUID id = UUID.fromString(String.format("0193a0c0-0000-7000-8000-0000000006%02d", i));
            run(c, id, one, A100, "2.5.1", A100_RUNS[i], true, 31 * 86400L + i * 3600L);
            a100Means.add(Statistics.of(toList(A100_RUNS[i])).mean());
            List<Sample> power = new ArrayList<>();
            for (int t = 0; t < 20; t++) {
                power.add(new Sample(t * 5, A100_WATTS, 0, 0));
            }
            SeriesSeeds.series(c, id, "POWER", "W", power);
        }
        run(c, FAILING_RUN, one, A100, "2.5.1", new double[] {19.0, 20.0, 21.0}, false, 35 * 86400L);
        // The failing run ran its A100 capped at 250 W, below the 400 W default, as its RunStarted's devices said.
        update(
                c,
                "INSERT INTO proj_run_throttle_head (run_id, devices, samples, last_position) VALUES (?, ?::jsonb, 0, 1)",
                FAILING_RUN,
                json(List.of(new AcceleratorDevice(0, "GPU-a100-capped", 250.0, 400.0, 1410.0, 1215.0))));
        // The noise σ ingest's detector estimates for these histories; the H200 one's is about 0.46.
        history(c, one, H200, h200Means.size(), 0.463);
        history(c, one, A100, A100_RUNS.length, 0.5);
        double before = h200Means.subList(0, STEP_AT).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        double after = h200Means.subList(STEP_AT, h200Means.size()).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        // The step ingest's detector finds in the H200 history.
        update(
                c,
                "INSERT INTO proj_change_point (key_id, metric, device_id, run_id, kind, benchmark, unit, level_before, level_after, "
                        + "point_index, started_at, version_before, version_after) VALUES (?, ?, ?, ?, 'regression', ?, 'samples/s', ?, ?, "
                        + "?, ?, '2.4.0', '2.5.1')",
                one.id(),
                METRIC,
                H200,
                historyRun(STEP_AT),
                BENCHMARK,
                before,
                after,
                STEP_AT,
                Timestamp.from(START.plusSeconds(STEP_AT * 86400L)));
        update(
                c,
                "INSERT INTO history_state (id, position, updated_at, method, histories, points) VALUES (1, 3, now(), ?, "
                        + "(SELECT count(*) FROM proj_history), (SELECT sum(points) FROM proj_history)) ON CONFLICT (id) DO UPDATE SET "
                        + "histories = excluded.histories, points = excluded.points",
                METHOD);
        row(c, one, H200, h200Means);
        row(c, one, A100, a100Means);
        row(c, eight, H200, List.of(630.0, 640.0, 650.0));
        energy(c, one, A100, a100Means, A100_WATTS);
        // The A100 runs' work reaches 50, 52 and 48% of the 250 TFLOP/s mamf measured on their host, 40, 41 and 39% of
        // the 312 TFLOP/s peak; the H200's work is declared by its job spec, on a host with no matmul rate measured.
        hardwareUse(
                c, one, A100, "COMPUTED", 250.0, new double[] {0.5, 0.52, 0.48}, 312.0, new double[] {0.4, 0.41, 0.39});
        hardwareUse(c, one, H200, "DECLARED", null, new double[] {}, 989.0, new double[] {0.3});
    }

    private static void hardwareUse(
            Connection c,
            ComparisonKey k,
            String device,
            String basis,
            Double matmul,
            double[] shares,
            Double peak,
            double[] mfus)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_hardware_use_cell (key_id, metric, device_id, valid, runs, basis, matmul_runs, matmul_sum, "
                        + "share_n, share_sum, share_sumsq, peak_tflops, mfu_n, mfu_sum, mfu_sumsq, peak_tbps, mbu_n, mbu_sum, "
                        + "mbu_sumsq) VALUES (?, ?, ?, true, 3, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, 0, 0)",
                k.id(),
                METRIC,
                device,
                basis,
                matmul == null ? 0 : shares.length,
                matmul == null ? 0.0 : matmul * shares.length,
                shares.length,
                Arrays.stream(shares).sum(),
                Arrays.stream(shares).map(v -> v * v).sum(),
                peak,
                mfus.length,
                Arrays.stream(mfus).sum(),
                Arrays.stream(mfus).map(v -> v * v).sum());
    }

    /**
     * The energy row ingest's EnergyProjection keeps for valid runs at {@code watts} on one accelerator: joules and
     * device-seconds per sample with their squares and product, and watts, summed.
     */
    private static void energy(Connection c, ComparisonKey k, String device, List<Double> means, double watts)
            throws SQLException {
        BigDecimal joules = BigDecimal.ZERO;
        BigDecimal joulesSq = BigDecimal.ZERO;
        BigDecimal seconds = BigDecimal.ZERO;
        BigDecimal secondsSq = BigDecimal.ZERO;
        BigDecimal product = BigDecimal.ZERO;
        for (double m : means) {
            BigDecimal x = new BigDecimal(Double.toString(watts / m));
            BigDecimal y = new BigDecimal(Double.toString(1 / m));
            joules = joules.add(x);
            joulesSq = joulesSq.add(x.multiply(x));
            seconds = seconds.add(y);
            secondsSq = secondsSq.add(y.multiply(y));
            product = product.add(x.multiply(y));
        }
        update(
                c,
                "INSERT INTO proj_energy_cell (key_id, metric, device_id, runs, joules_sum, joules_sq, watts_sum,"
                        + " device_seconds_sum, device_seconds_sq, joules_device_seconds, failing_runs,"
                        + " failing_joules_sum, failing_watts_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0)",
                k.id(),
                METRIC,
                device,
                means.size(),
                joules,
                joulesSq,
                BigDecimal.valueOf(watts * means.size()),
                seconds,
                secondsSq,
                product);
    }

    private static void history(Connection c, ComparisonKey k, String device, int points, double sigma)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_history (key_id, metric, device_id, benchmark, points, sigma) VALUES (?, ?, ?, ?, ?, ?)",
                k.id(),
                METRIC,
                device,
                BENCHMARK,
                points,
                sigma);
    }

    private static void row(Connection c, ComparisonKey k, String device, List<Double> means) throws SQLException {
        Statistics s = Statistics.of(means);
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, 'samples/s', 'HIGHER_IS_BETTER', ?, ?, ?, ?, ?, ?, ?, ?)",
                k.id(),
                METRIC,
                device,
                BENCHMARK,
                means.size(),
                means.size() * 3,
                s.mean(),
                s.ci95Low(),
                s.ci95High(),
                s.max(),
                s.cv(),
                Timestamp.from(START));
    }

    private static void run(
            Connection c,
            UUID runId,
            ComparisonKey key,
            String device,
            String framework,
            double[] values,
            boolean valid,
            long offsetSeconds)
            throws SQLException {
        Instant started = START.plusSeconds(offsetSeconds);
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, software, accelerators, "
                        + "started_at, finished_at, duration_seconds, validity, valid, started_position, last_position) VALUES (?, ?, 'agent-sim', "
                        + "'completed', ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, 600, ?::jsonb, ?, 1, 3)",
                runId,
                "run/" + runId,
                BENCHMARK,
                key.id(),
                device,
                key.totalAccelerators(),
                json(Map.of("framework", "pytorch", "framework_version", framework)),
                json(List.of(Map.of("device_id", device, "driver", DRIVERS.get(device), "runtime", "CUDA 12.4"))),
                Timestamp.from(started),
                Timestamp.from(started.plusSeconds(600)),
                json(List.of(
                        Map.of("name", "cv_below_10pct", "passed", valid, "detail", valid ? "cv 0.5%" : "cv 12.0%"))),
                valid);
        Statistics s = Statistics.of(toList(values));
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, stdev, "
                        + "min, max, ci95_low, ci95_high, cv, raw_values) VALUES (?, ?, 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, ?, ?, ?, ?, ?, ?, "
                        + "?, ?, ?, ?, ?, ?)",
                runId,
                METRIC,
                key.id(),
                device,
                s.n(),
                s.mean(),
                s.median(),
                s.stdev(),
                s.min(),
                s.max(),
                s.ci95Low(),
                s.ci95High(),
                s.cv(),
                c.createArrayOf("float8", toList(values).toArray()));
    }

    private static List<Double> toList(double[] v) {
        List<Double> out = new ArrayList<>();
        for (double x : v) {
            out.add(x);
        }
        return out;
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
