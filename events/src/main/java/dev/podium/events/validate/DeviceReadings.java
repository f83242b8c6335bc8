package dev.podium.events.validate;

import dev.podium.events.Envelope;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.run.MetricSampled;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The physical ranges of an accelerator's readings: well beyond any device made, so that only a broken tool or a lying
 * writer falls outside. The one place these rules live. The agent drops a reading outside them; ingest refuses a
 * MetricSampled that carries one (the run's other records stand), and a RunStarted device configured outside them fails
 * the run's not_throttled check ({@link ThrottleCheck}) instead of losing the run. Pure.
 */
public final class DeviceReadings {

    /** Hotter than any device runs before it shuts down. */
    public static final double MAX_TEMPERATURE_C = 200;
    /** Far above any accelerator's SM or memory clock. */
    public static final double MAX_CLOCK_MHZ = 20_000;
    /** Far above any single accelerator's power limit. */
    public static final double MAX_POWER_LIMIT_W = 5_000;
    /** More errors than a device could count during one run. */
    public static final double MAX_ERRORS = 1e12;

    private DeviceReadings() {}

    /** Whether a sample of this kind may hold this value; kinds without a physical range always may. */
    public static boolean plausible(SeriesKind kind, double value) {
        return why(kind, value) == null;
    }

    /** Why a sample of this kind may not hold this value, or null when it may. */
    static String why(SeriesKind kind, double value) {
        if (!Double.isFinite(value) || value < 0) {
            return "is not a possible " + kind + " reading (below 0 or not a number)";
        }
        return switch (kind) {
            case TEMPERATURE -> above(kind, value, MAX_TEMPERATURE_C, "°C");
            case SM_CLOCK, MEMORY_CLOCK -> above(kind, value, MAX_CLOCK_MHZ, "MHz");
            case POWER_LIMIT -> above(kind, value, MAX_POWER_LIMIT_W, "W");
            case THROTTLE_REASONS -> reasons(value);
            case ECC_ERRORS ->
                value != Math.rint(value)
                        ? "is not a possible ECC_ERRORS reading (not a whole number)"
                        : above(kind, value, MAX_ERRORS, "errors");
            default -> null;
        };
    }

    private static String above(SeriesKind kind, double value, double max, String unit) {
        return value <= max
                ? null
                : String.format(Locale.ROOT, "is not a possible %s reading (above %s %s)", kind, format(max), unit);
    }

    private static String reasons(double value) {
        if (value != Math.rint(value) || value > Long.MAX_VALUE) {
            return "is not a possible THROTTLE_REASONS reading (not a whole bit set)";
        }
        long unknown = (long) value & ~ThrottleReason.ALL;
        return unknown == 0
                ? null
                : String.format(
                        Locale.ROOT,
                        "is not a possible THROTTLE_REASONS reading (bits 0x%x are no throttle reason of the contract)",
                        unknown);
    }

    /** Readings of a MetricSampled outside their range, each named by its sample; empty for every other event. */
    public static List<Violation> violations(Envelope e) {
        List<Violation> out = new ArrayList<>();
        if (e.payload() instanceof MetricSampled m && m.samples() != null) {
            for (int i = 0; i < m.samples().size(); i++) {
                double v = m.samples().get(i).value();
                String why = why(m.series(), v);
                if (why != null) {
                    out.add(new Violation("payload.samples[" + i + "].value", format(v) + " " + why));
                }
            }
        }
        return out;
    }

    /**
     * What in a device's configuration no device could report: each figure outside its range, as "power limit -5 W
     * (not within 0 to 5000 W)"; empty when all are possible or unknown.
     */
    public static List<String> implausible(AcceleratorDevice d) {
        List<String> out = new ArrayList<>();
        range("power limit", d.powerLimitWatts(), MAX_POWER_LIMIT_W, "W", out);
        range("default power limit", d.defaultPowerLimitWatts(), MAX_POWER_LIMIT_W, "W", out);
        range("highest SM clock", d.maxSmClockMhz(), MAX_CLOCK_MHZ, "MHz", out);
        range("highest memory clock", d.maxMemoryClockMhz(), MAX_CLOCK_MHZ, "MHz", out);
        return out;
    }

    private static void range(String name, Double value, double max, String unit, List<String> out) {
        if (value != null && !(value >= 0 && value <= max)) {
            out.add(String.format(
                    Locale.ROOT, "%s %s %s (not within 0 to %s %s)", name, format(value), unit, format(max), unit));
        }
    }

    static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
