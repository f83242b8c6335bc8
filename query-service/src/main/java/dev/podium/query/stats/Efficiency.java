package dev.podium.query.stats;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The arithmetic of cost, energy and scaling, apart from where the numbers come from. */
public final class Efficiency {

    private static final Pattern RATE = Pattern.compile("^\\s*([A-Za-z][A-Za-z _-]{0,40}?)\\s*(?:/|per\\s+)(?:s|sec|second)\\s*$");

    private Efficiency() {
    }

    /** What a rate unit counts per second: "samples" for "samples/s", "tokens" for "tokens/sec"; null for anything else. */
    public static String rateOf(String unit) {
        if (unit == null) {
            return null;
        }
        Matcher m = RATE.matcher(unit);
        return m.matches() ? m.group(1).strip().toLowerCase(Locale.ROOT) : null;
    }

    /** Units (samples) per dollar: a system's rate × 3600 s ÷ (price per device-hour × devices). */
    public static Double perDollar(double systemRate, double pricePerDeviceHour, int devices) {
        if (!(systemRate > 0) || !(pricePerDeviceHour > 0) || devices < 1) {
            return null;
        }
        return systemRate * 3600 / (pricePerDeviceHour * devices);
    }

    /** Joules per unit: average system power (W) ÷ system rate (units/s). */
    public static Double joulesPerUnit(double systemWatts, double systemRate) {
        if (!(systemWatts > 0) || !(systemRate > 0)) {
            return null;
        }
        return systemWatts / systemRate;
    }

    /**
     * Scaling efficiency of a system of {@code n} accelerators against {@code base} accelerators of the same device: for a
     * rate (higher is better), (value_n / n) ÷ (value_base / base); for a time (lower is better), the ideal time
     * value_base × base / n divided by the measured value_n. 1 is perfect, 0.9 is 90%.
     */
    public static Double scaling(double value, int n, double baseValue, int base, boolean lowerIsBetter) {
        if (!(value > 0) || !(baseValue > 0) || n < 1 || base < 1) {
            return null;
        }
        return lowerIsBetter ? (baseValue * base) / ((double) n * value) : (value / n) / (baseValue / base);
    }

    /**
     * Average system power from POWER samples: each device's samples averaged over time, summed over devices (samples
     * without a device index count as one system reading). Null without samples.
     */
    public static Double systemWatts(List<double[]> deviceAndWatts) {
        if (deviceAndWatts.isEmpty()) {
            return null;
        }
        Map<Integer, double[]> sums = new TreeMap<>();
        for (double[] s : deviceAndWatts) {
            double[] acc = sums.computeIfAbsent((int) s[0], k -> new double[2]);
            acc[0] += s[1];
            acc[1]++;
        }
        return sums.values().stream().mapToDouble(a -> a[0] / a[1]).sum();
    }

    /**
     * Joules per unit per group (a device, or a device and key): for each run with power, average system watts ÷ its
     * system rate (the mean, times the run's accelerators when the metric is per accelerator), averaged over the group's runs.
     */
    public static Map<String, Double> meanJoules(List<StatsQueries.RunValues> runs, Map<java.util.UUID, Double> watts,
            java.util.function.Function<StatsQueries.RunValues, String> group) {
        Map<String, double[]> acc = new java.util.HashMap<>();
        for (StatsQueries.RunValues r : runs) {
            Double w = watts.get(r.runId());
            if (w == null || r.mean() == null) {
                continue;
            }
            int devices = r.deviceCount() == null ? 1 : r.deviceCount();
            Double j = joulesPerUnit(w, "PER_ACCELERATOR".equals(r.scope()) ? r.mean() * devices : r.mean());
            if (j != null) {
                double[] a = acc.computeIfAbsent(group.apply(r), k -> new double[2]);
                a[0] += j;
                a[1]++;
            }
        }
        Map<String, Double> out = new java.util.HashMap<>();
        acc.forEach((k, a) -> out.put(k, a[0] / a[1]));
        return out;
    }
}
