package dev.podium.query.stats;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arithmetic of cost and scaling, apart from where the numbers come from (joules per unit are ingest's, summed per cell
 * by its {@code EnergyProjection}).
 */
public final class Efficiency {

    private static final Pattern RATE =
            Pattern.compile("^\\s*([A-Za-z][A-Za-z _-]{0,40}?)\\s*(?:/|per\\s+)(?:s|sec|second)\\s*$");

    private Efficiency() {}

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
}
