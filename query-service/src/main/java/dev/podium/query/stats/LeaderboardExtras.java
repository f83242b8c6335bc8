package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;
import java.util.List;

/**
 * What a leaderboard shows beyond mean and interval: how many runs its measured rows leave out because they failed a
 * validity check (or, with failing runs included, how many of each row's runs failed), and per entry the samples per
 * dollar at the configured price per device-hour, with failing runs included the runs that ran under a lowered power
 * limit (the lowest limit beside its default), the energy per sample from the agent's power samples and the scaling
 * efficiency against the same device at fewer accelerators, and its {@link HardwareUse} where its runs state their work.
 * {@code rateOf} is what the metric counts per second
 * ("samples" for samples/s), null when it is not a rate.
 */
public record LeaderboardExtras(boolean includingFailing, int runsLeftOut, String rateOf, List<Columns> columns) {

    /**
     * One entry's extra columns; each null when it cannot be computed, {@code notes} say why or how. {@code systemWatts}
     * is the mean of the runs' system power over their measured windows that {@code joulesPerUnit} comes from (its interval
     * over the runs in {@code joulesInterval}, with the cost per million units under each priced basis in {@code
     * costsPerMillion}); {@code scalingEquivalence} is
     * the scaling efficiency's verdict against linear scaling (1) at the margin, where both rows have runs' intervals.
     */
    public record Columns(
            String deviceId,
            String source,
            int failingRuns,
            CellQueries.PowerCap powerCap,
            Double perDollar,
            Double pricePerDeviceHour,
            Double joulesPerUnit,
            Double systemWatts,
            Double scalingEfficiency,
            Integer accelerators,
            Integer scalingBase,
            Equivalence scalingEquivalence,
            List<String> notes,
            String historyLink,
            HardwareUse hardwareUse,
            RunInterval joulesInterval,
            List<UnitCosts.Cost> costsPerMillion) {}

    public boolean anyPerDollar() {
        return columns.stream().anyMatch(c -> c.perDollar() != null);
    }

    public boolean anyEnergy() {
        return columns.stream().anyMatch(c -> c.joulesPerUnit() != null);
    }

    /** Whether any row's work reaches the hardware-use columns (MFU, share of measured matmul). */
    public boolean anyHardwareUse() {
        return columns.stream().anyMatch(c -> c.hardwareUse() != null);
    }

    /** Whether any row states bytes per unit and has a peak bandwidth (MBU). */
    public boolean anyMbu() {
        return columns.stream()
                .anyMatch(c -> c.hardwareUse() != null && c.hardwareUse().mbu() != null);
    }

    public boolean anyScaling() {
        return columns.stream().anyMatch(c -> c.scalingEfficiency() != null);
    }
}
