package dev.podium.query.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** Which metric a page shows: the one asked for, checked, else the benchmark's primary one. */
public final class Metrics {

    private Metrics() {}

    /**
     * The benchmark's primary metric: a throughput in samples per second first, then any other rate per second or
     * throughput, then whatever the list puts first (the most common, which is the metric published claims use when only
     * published figures exist). Never {@code train_loss} just because it sorts first.
     */
    public static String primary(List<String> metrics) {
        return metrics.stream()
                .min(Comparator.comparingInt(Metrics::rank).thenComparingInt(metrics::indexOf))
                .orElse(null);
    }

    /**
     * The metric shown and the metrics on offer.
     *
     * @param metric the metric asked for, else the primary one of {@code offered}; null where there is none
     * @param offered the ranked metrics, with the one asked for at their end where the list left it out
     */
    public record Choice(String metric, List<String> offered) {}

    /**
     * The metric asked for, checked against what there is: one the benchmark has no rows for answers 404 ({@link
     * NotFound}), never another in its place; one past the ranked list ({@code exists} says whether the benchmark has it)
     * is shown and offered. Blank: the primary one.
     */
    public static Choice choose(String requested, List<String> ranked, Predicate<String> exists) {
        if (requested == null || requested.isBlank()) {
            return new Choice(primary(ranked), ranked);
        }
        if (ranked.contains(requested)) {
            return new Choice(requested, ranked);
        }
        if (!exists.test(requested)) {
            throw NotFound.metric(requested);
        }
        List<String> offered = new ArrayList<>(ranked);
        offered.add(requested);
        return new Choice(requested, offered);
    }

    private static int rank(String metric) {
        String m = metric.toLowerCase(Locale.ROOT);
        if (m.contains("samples_per_second") || m.contains("samples_per_sec")) {
            return 0;
        }
        if (m.endsWith("_per_second") || m.endsWith("_per_sec") || m.contains("throughput") || m.endsWith("_per_s")) {
            return 1;
        }
        return 2;
    }
}
