package dev.podium.agent.parse;

import dev.podium.events.model.Direction;
import dev.podium.events.model.WorkPerUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Gathers what a parser finds and enforces the limits that keep hostile output harmless: finite values only, names
 * cleaned to a safe alphabet and length, at most {@value #MAX_METRICS} metrics and {@value #MAX_STEPS} steps. A later
 * value of the same name replaces the earlier one (the last report of a metric is the final one).
 */
final class Collector {

    static final int MAX_METRICS = 256;
    /** A zettaFLOP (or zettabyte) per sample or token is beyond any model's; a larger figure is a lie or a bug. */
    static final double MAX_WORK_PER_UNIT = 1e21;

    static final int MAX_STEPS = 100_000;
    static final int MAX_SAMPLES = 100_000;
    static final int MAX_WARNINGS = 20;
    /** As for JSON numbers: a longer numeral is no measurement. */
    static final int MAX_NUMBER_CHARS = 64;

    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9_.:/%-]+");

    private final String format;
    private final Map<String, ParsedMetric> metrics = new LinkedHashMap<>();
    private final List<StepSample> steps = new ArrayList<>();
    private final Map<String, String> info = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    Collector(String format) {
        this.format = format;
    }

    void metric(String name, double value, String unit, Direction direction) {
        metric(name, value, unit, direction, List.of());
    }

    /**
     * A metric with the per-request or per-step values behind it; those that are not finite and non-negative are left
     * out, and at most {@value #MAX_SAMPLES} are kept.
     */
    void metric(String name, double value, String unit, Direction direction, List<Double> samples) {
        String n = clean(name);
        if (!Double.isFinite(value)) {
            warn("ignored non-finite value of " + n);
            return;
        }
        if (n.isEmpty()) {
            return;
        }
        if (value < 0) {
            warn("ignored negative value " + value + " of " + n);
            return;
        }
        if (value == 0 && isRate(n, unit)) {
            warn("ignored zero rate " + n);
            return;
        }
        if (!metrics.containsKey(n) && metrics.size() >= MAX_METRICS) {
            warn("more than " + MAX_METRICS + " metrics; the rest are ignored");
            return;
        }
        List<Double> kept = samples.stream()
                .filter(v -> v != null && Double.isFinite(v) && v >= 0)
                .limit(MAX_SAMPLES)
                .toList();
        if (kept.size() < Math.min(samples.size(), MAX_SAMPLES)) {
            warn("ignored " + (Math.min(samples.size(), MAX_SAMPLES) - kept.size()) + " unusable per-request values of "
                    + n);
        }
        // The throughput's samples are added once the steps are read: the work per unit stated before stays
        ParsedMetric before = metrics.remove(n);
        metrics.put(
                n,
                new ParsedMetric(
                        n,
                        value,
                        unit == null ? "1" : clip(unit, 32),
                        direction,
                        kept,
                        before == null ? null : before.work()));
    }

    /**
     * What one unit of an already reported metric costs the hardware; a figure that is not finite and positive is left
     * out with a warning, and nothing is kept when neither is usable.
     */
    void work(String name, Double flops, Double bytes) {
        String n = clean(name);
        ParsedMetric m = metrics.get(n);
        Double f = usableWork(n, "flops_per_unit", flops);
        Double b = usableWork(n, "bytes_per_unit", bytes);
        if (m != null && (f != null || b != null)) {
            metrics.put(n, m.withWork(new WorkPerUnit(f, b, WorkPerUnit.Basis.DECLARED)));
        }
    }

    private Double usableWork(String metric, String what, Double v) {
        if (v == null) {
            return null;
        }
        if (!Double.isFinite(v) || v <= 0 || v > MAX_WORK_PER_UNIT) {
            warn("ignored " + what + " " + v + " of " + metric + ": not a positive figure up to " + MAX_WORK_PER_UNIT);
            return null;
        }
        return v;
    }

    Optional<ParsedMetric> found(String name) {
        return Optional.ofNullable(metrics.get(name));
    }

    /** Puts {@code name}, when found, first: the metric a run is judged by when the caller takes the first. */
    void lead(String name) {
        ParsedMetric m = metrics.get(name);
        if (m != null) {
            Map<String, ParsedMetric> rest = new LinkedHashMap<>(metrics);
            metrics.clear();
            metrics.put(name, m);
            metrics.putAll(rest);
        }
    }

    void step(StepSample s) {
        if (steps.size() < MAX_STEPS) {
            steps.add(s);
        }
    }

    void info(String key, String value) {
        if (value != null && info.size() < 64) {
            info.put(clean(key), clip(value, 256));
        }
    }

    void warn(String w) {
        if (warnings.size() < MAX_WARNINGS) {
            warnings.add(clip(w, 300));
        }
    }

    boolean isEmpty() {
        return metrics.isEmpty();
    }

    ParseResult result() {
        return new ParseResult(format, new ArrayList<>(metrics.values()), steps, info, warnings);
    }

    static String clean(String name) {
        String n = UNSAFE.matcher(name == null ? "" : name.strip()).replaceAll("_");
        return clip(n, 128);
    }

    static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** A rate (something per unit of time): zero means nothing was measured, never a result. */
    static boolean isRate(String name, String unit) {
        String n = (name + " " + (unit == null ? "" : unit)).toLowerCase(Locale.ROOT);
        return n.matches(
                ".*(per_second|per_sec|/s\\b|/sec\\b|throughput|tokens_per|samples_per|steps_per|qps|ips\\b).*");
    }

    /** Throughputs and accuracies are better higher; times, latencies, losses and memory lower. */
    static Direction guessDirection(String name, String unit) {
        String n = (name + " " + (unit == null ? "" : unit)).toLowerCase(Locale.ROOT);
        if (n.matches(
                ".*(per_second|per_sec|/s\\b|throughput|samples_per|tokens_per|accuracy|acc\\b|f1|bleu|rouge|efficiency|qps|ips).*")) {
            return Direction.HIGHER_IS_BETTER;
        }
        return Direction.LOWER_IS_BETTER;
    }

    static Double number(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip().replace(",", "");
        if (t.length() > MAX_NUMBER_CHARS) {
            return null;
        }
        if (!t.matches("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?")) {
            return null;
        }
        double v = Double.parseDouble(t);
        return Double.isFinite(v) ? v : null;
    }
}
