package dev.podium.events.validate;

import dev.podium.events.Envelope;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunStarted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The physical ranges of an accelerator's readings: well beyond any device made, so that only a broken tool or a lying
 * writer falls outside. The agent drops a reading outside them; ingest refuses a record that carries one, since the
 * not_throttled check and the pages read these values. Pure.
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
        if (!Double.isFinite(value) || value < 0) {
            return false;
        }
        return switch (kind) {
            case TEMPERATURE -> value <= MAX_TEMPERATURE_C;
            case SM_CLOCK, MEMORY_CLOCK -> value <= MAX_CLOCK_MHZ;
            case POWER_LIMIT -> value <= MAX_POWER_LIMIT_W;
            case THROTTLE_REASONS -> value == Math.rint(value) && ((long) value & ~ThrottleReason.ALL) == 0;
            case ECC_ERRORS -> value == Math.rint(value) && value <= MAX_ERRORS;
            default -> true;
        };
    }

    /** Readings of a MetricSampled or of a RunStarted's devices outside their range; empty for every other event. */
    public static List<Violation> violations(Envelope e) {
        List<Violation> out = new ArrayList<>();
        if (e.payload() instanceof MetricSampled m && m.samples() != null) {
            for (int i = 0; i < m.samples().size(); i++) {
                double v = m.samples().get(i).value();
                if (!plausible(m.series(), v)) {
                    out.add(new Violation(
                            "payload.samples[" + i + "].value",
                            String.format(Locale.ROOT, "%s is not a possible %s reading", v, m.series())));
                }
            }
        } else if (e.payload() instanceof RunStarted r && r.devices() != null) {
            for (int i = 0; i < r.devices().size(); i++) {
                AcceleratorDevice d = r.devices().get(i);
                String p = "payload.devices[" + i + "].";
                range(p + "power_limit_watts", d.powerLimitWatts(), MAX_POWER_LIMIT_W, out);
                range(p + "default_power_limit_watts", d.defaultPowerLimitWatts(), MAX_POWER_LIMIT_W, out);
                range(p + "max_sm_clock_mhz", d.maxSmClockMhz(), MAX_CLOCK_MHZ, out);
                range(p + "max_memory_clock_mhz", d.maxMemoryClockMhz(), MAX_CLOCK_MHZ, out);
            }
        }
        return out;
    }

    private static void range(String path, Double value, double max, List<Violation> out) {
        if (value != null && !(value <= max)) {
            out.add(new Violation(path, value + " is above " + max));
        }
    }
}
