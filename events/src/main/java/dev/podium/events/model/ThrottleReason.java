package dev.podium.events.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * Why an accelerator ran below its clocks, as a {@link SeriesKind#THROTTLE_REASONS} sample carries it: a bit set with
 * NVML's bit values (nvmlClocksEventReasons), which other vendors' reasons are mapped onto. Only the reasons that bear on
 * a result are in the contract; idle, application clocks, sync boost and display clocks are left out by the agent.
 */
public enum ThrottleReason {
    /** The software power-scaling algorithm holds clocks down to stay under the enforced limit: normal at full load. */
    SW_POWER_CAP(0x04, "software power cap"),
    HW_SLOWDOWN(0x08, "hardware slowdown"),
    SW_THERMAL_SLOWDOWN(0x20, "software thermal slowdown"),
    HW_THERMAL_SLOWDOWN(0x40, "hardware thermal slowdown"),
    HW_POWER_BRAKE_SLOWDOWN(0x80, "hardware power brake slowdown");

    /** Every bit a sample may set. */
    public static final long ALL = 0x04 | 0x08 | 0x20 | 0x40 | 0x80;

    private final long bit;
    private final String label;

    ThrottleReason(long bit, String label) {
        this.bit = bit;
        this.label = label;
    }

    public long bit() {
        return bit;
    }

    public String label() {
        return label;
    }

    /** Reasons that make a run's figures not those of the device at its clocks, unlike a software power cap. */
    public boolean slowdown() {
        return this != SW_POWER_CAP;
    }

    /** The reasons of a bit set; bits outside {@link #ALL} are ignored here and refused by validation. */
    public static Set<ThrottleReason> of(long bits) {
        Set<ThrottleReason> out = EnumSet.noneOf(ThrottleReason.class);
        for (ThrottleReason r : values()) {
            if ((bits & r.bit) != 0) {
                out.add(r);
            }
        }
        return out;
    }

    public static long bits(Set<ThrottleReason> reasons) {
        long out = 0;
        for (ThrottleReason r : reasons) {
            out |= r.bit;
        }
        return out;
    }
}
