package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/**
 * One accelerator of a run as its vendor tool reported it just before the first repetition: its index (the
 * {@code device} of its samples), its identity (a UUID, serial or PCI bus id: whichever the tool gives, for telling one
 * device from another across runs), and the configuration that bounds its figures: the enforced power limit and the
 * default one, and the highest SM and memory clocks. A figure the tool does not report is null.
 * Their ranges are {@link dev.podium.events.validate.DeviceReadings}' alone: a figure outside them fails the run's
 * not_throttled check rather than refusing the RunStarted, which would lose the whole run.
 */
public record AcceleratorDevice(
        @NonNegative int index,
        @Nullable String identity,
        @Nullable Double powerLimitWatts,
        @Nullable Double defaultPowerLimitWatts,
        @Nullable Double maxSmClockMhz,
        @Nullable Double maxMemoryClockMhz) {

    /** The enforced limit is below the default: someone capped the device, so its figures are not the model's. */
    public boolean powerCapped() {
        return powerLimitWatts != null && defaultPowerLimitWatts != null && powerLimitWatts < defaultPowerLimitWatts;
    }
}
