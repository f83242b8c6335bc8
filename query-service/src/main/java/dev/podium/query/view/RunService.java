package dev.podium.query.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.query.chart.Chart;
import dev.podium.query.chart.LineCharts;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import dev.podium.query.data.RunDetail;
import dev.podium.query.data.SeriesRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * Builds a run page from proj_run, proj_result, the run's devices (proj_run_throttle_head), the stored downsampled
 * series and the run's event summaries.
 */
@ApplicationScoped
public class RunService {

    private static final int MAX_TEXT = 2000;

    private final Queries queries;

    /** The series kinds a run page draws: all it reads of a run's series. */
    static final List<String> DRAWN = List.of("STEP_THROUGHPUT", "CPU_UTILISATION", "ACCELERATOR_UTILISATION");

    public RunService(Queries queries) {
        this.queries = queries;
    }

    /** The run's page, its event timeline from the event after sequence number {@code eventsAfter} (null: the first). */
    public Optional<RunView> build(UUID runId, Long eventsAfter) {
        return queries.run(runId).map(d -> view(d, eventsAfter));
    }

    private RunView view(RunDetail d, Long eventsAfter) {
        UUID runId = d.summary().runId();
        Optional<KeyRow> key = d.summary().keyId() == null
                ? Optional.empty()
                : queries.key(d.summary().keyId());
        List<SeriesRow> series = queries.series(runId, DRAWN, LineCharts.MAX_POINTS);
        Chart throughput = LineCharts.of(
                "Per-step throughput",
                unitOf(series, "STEP_THROUGHPUT"),
                lines(series, "STEP_THROUGHPUT", SeriesRow.Point::repetition, "repetition "),
                null);
        List<LineCharts.Series> util =
                new ArrayList<>(lines(series, "CPU_UTILISATION", SeriesRow.Point::device, "CPU "));
        util.addAll(lines(series, "ACCELERATOR_UTILISATION", SeriesRow.Point::device, "accelerator "));
        Chart utilisation = LineCharts.of("CPU and accelerator utilisation", "%", util, 100.0);
        List<Entry> keyEntries = new ArrayList<>();
        key.ifPresent(k -> k.key().dimensions().forEach((n, v) -> keyEntries.add(new Entry(n, v == null ? "—" : v))));
        JsonNode workload = d.workload();
        List<Entry> workloadEntries = entries(workload, "parameters");
        List<Entry> parameters = workload == null ? List.of() : entries(workload.get("parameters"));
        return new RunView(
                d.summary(),
                queries.retraction(runId).orElse(null),
                Labels.device(d.summary().deviceId()),
                key.map(KeyRow::canonical).orElse(null),
                key.map(k -> k.key().label()).orElse(null),
                keyEntries,
                workloadEntries,
                parameters,
                entries(d.host()),
                accelerators(d),
                devices(runId),
                entries(d.software()),
                queries.results(runId),
                checks(d),
                entries(d.failure()),
                throughput,
                utilisation,
                RunEvents.of(
                        queries.events(runId, eventsAfter, RunEvents.PER_PAGE + 1),
                        queries.eventCount(runId),
                        eventsAfter));
    }

    private static List<List<Entry>> accelerators(RunDetail d) {
        List<List<Entry>> accelerators = new ArrayList<>();
        if (d.accelerators() != null && d.accelerators().isArray()) {
            d.accelerators().forEach(a -> accelerators.add(entries(a)));
        }
        return accelerators;
    }

    private static List<RunView.Check> checks(RunDetail d) {
        List<RunView.Check> checks = new ArrayList<>();
        if (d.validity() != null && d.validity().isArray()) {
            d.validity()
                    .forEach(c -> checks.add(new RunView.Check(
                            text(c.get("name")), c.path("passed").asBoolean(false), text(c.get("detail")))));
        }
        return checks;
    }

    private List<RunView.Device> devices(UUID runId) {
        return queries.runDevices(runId).stream()
                .map(a -> new RunView.Device(
                        a.index(),
                        a.identity(),
                        a.powerLimitWatts(),
                        a.defaultPowerLimitWatts(),
                        a.maxSmClockMhz(),
                        a.maxMemoryClockMhz(),
                        a.powerCapped()))
                .toList();
    }

    private static String unitOf(List<SeriesRow> series, String kind) {
        return series.stream()
                .filter(s -> kind.equalsIgnoreCase(s.series()))
                .map(SeriesRow::unit)
                .findFirst()
                .orElse("");
    }

    /** The points of one series kind, one line per value of {@code splitBy} (repetition or device index). */
    private static List<LineCharts.Series> lines(
            List<SeriesRow> series, String kind, Function<SeriesRow.Point, Integer> splitBy, String prefix) {
        Map<Integer, List<double[]>> byIndex = new TreeMap<>();
        for (SeriesRow s : series) {
            if (!kind.equalsIgnoreCase(s.series())) {
                continue;
            }
            for (SeriesRow.Point p : s.points()) {
                Integer idx = splitBy.apply(p);
                byIndex.computeIfAbsent(idx == null ? -1 : idx, i -> new ArrayList<>())
                        .add(new double[] {p.t(), p.value()});
            }
        }
        List<LineCharts.Series> out = new ArrayList<>();
        byIndex.entrySet().stream().limit(8).forEach(e -> {
            e.getValue().sort((a, b) -> Double.compare(a[0], b[0]));
            String label = e.getKey() < 0 ? prefix.trim() : prefix + e.getKey();
            out.add(new LineCharts.Series(label, e.getValue()));
        });
        return out;
    }

    /** The fields of a JSON object as name and text; nested objects and arrays as compact JSON, {@code skip} left out. */
    static List<Entry> entries(JsonNode node, String... skip) {
        List<Entry> out = new ArrayList<>();
        if (node == null || !node.isObject()) {
            return out;
        }
        List<String> skipped = List.of(skip);
        node.fields().forEachRemaining(e -> {
            if (!skipped.contains(e.getKey())) {
                out.add(new Entry(
                        e.getKey(),
                        truncate(
                                e.getValue().isValueNode()
                                        ? e.getValue().asText()
                                        : e.getValue().toString())));
            }
        });
        return out;
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static String truncate(String s) {
        return s == null || s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT) + "…";
    }
}
