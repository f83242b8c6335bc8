package dev.podium.events.model;

/** The time series an agent samples during a run. */
public enum SeriesKind {
    STEP_THROUGHPUT,
    CPU_UTILISATION,
    ACCELERATOR_UTILISATION,
    HOST_MEMORY,
    ACCELERATOR_MEMORY,
    POWER
}
