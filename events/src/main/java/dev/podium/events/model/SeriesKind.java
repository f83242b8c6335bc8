package dev.podium.events.model;

/**
 * The time series an agent samples during a run. The accelerator state kinds (clocks, temperature, enforced power
 * limit, throttle reasons, ECC errors) are per device, as the vendor tool reports them; {@link #THROTTLE_REASONS} values
 * are {@link ThrottleReason} bit sets.
 */
public enum SeriesKind {
    STEP_THROUGHPUT,
    CPU_UTILISATION,
    ACCELERATOR_UTILISATION,
    HOST_MEMORY,
    ACCELERATOR_MEMORY,
    POWER,
    SM_CLOCK,
    MEMORY_CLOCK,
    TEMPERATURE,
    POWER_LIMIT,
    THROTTLE_REASONS,
    ECC_ERRORS;

    /** The unit every sample of this kind is in. */
    public String unit() {
        return switch (this) {
            case CPU_UTILISATION, ACCELERATOR_UTILISATION -> "%";
            case HOST_MEMORY, ACCELERATOR_MEMORY -> "bytes";
            case POWER, POWER_LIMIT -> "W";
            case STEP_THROUGHPUT -> "samples/s";
            case SM_CLOCK, MEMORY_CLOCK -> "MHz";
            case TEMPERATURE -> "C";
            case THROTTLE_REASONS -> "reasons";
            case ECC_ERRORS -> "errors";
        };
    }
}
