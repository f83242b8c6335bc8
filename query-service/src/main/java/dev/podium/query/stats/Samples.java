package dev.podium.query.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The values a ratio interval is computed from, for one side (a device under a key, or a framework version): the
 * per-repetition values of its runs while it has one or two runs, and the runs' means once it has
 * {@link #RUN_MEANS_FROM} or more. Repetitions of one run share that run's conditions (host, day, thermal state); pooling
 * the repetitions of many runs would count run-to-run variation as if it were repetition noise and make the interval too
 * narrow, so with enough runs each run counts once.
 */
public final class Samples {

    public static final int RUN_MEANS_FROM = 3;

    private Samples() {}

    /** {@code runs}: each run's per-repetition values (an empty array when it recorded none) and mean (may be null). */
    public static double[] of(List<double[]> rawPerRun, List<Double> meanPerRun) {
        if (rawPerRun.size() >= RUN_MEANS_FROM) {
            double[] means = new double[rawPerRun.size()];
            int k = 0;
            for (int i = 0; i < rawPerRun.size(); i++) {
                double[] raw = rawPerRun.get(i);
                Double m = raw.length > 0
                        ? Double.valueOf(Arrays.stream(raw).average().orElseThrow())
                        : meanPerRun.get(i);
                if (m != null) {
                    means[k++] = m;
                }
            }
            return Arrays.copyOf(means, k);
        }
        return rawPerRun.stream().flatMapToDouble(Arrays::stream).toArray();
    }
}
