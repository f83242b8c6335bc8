package dev.podium.query.view;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Which metric a page shows when none is asked for. */
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

    /** The metric asked for when the benchmark has it, else the primary one. */
    public static String choose(String requested, List<String> metrics) {
        return requested != null && metrics.contains(requested) ? requested : primary(metrics);
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
