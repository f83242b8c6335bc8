package dev.podium.events.model;

/** Whether a metric is per accelerator or for the whole system (all accelerators of the run together). */
public enum Scope {
    PER_ACCELERATOR,
    SYSTEM
}
