package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;
import java.util.List;

/**
 * The ratio interval of one comparison cell: a device and source under one key against the baseline device under the same
 * key and source. {@code interval} is null when there is none, and {@code note} says why (a published figure carries no
 * per-repetition values; fewer than two repetitions). {@code equivalence} is its verdict at the page's margin, null
 * without an interval. {@code differences} are the configuration settings in which the device's counted runs differ from
 * the baseline's, and {@code runs} and {@code baselineRuns} each side's runs attempted, counted and left out (empty and
 * null for a published figure); {@code powerCap} and {@code baselinePowerCap} each side's runs under a lowered power
 * limit, null when none.
 */
public record RatioCell(
        String deviceId,
        String source,
        String keyId,
        RatioInterval interval,
        Equivalence equivalence,
        String note,
        List<ConfigDifference> differences,
        RunTally runs,
        RunTally baselineRuns,
        CellQueries.PowerCap powerCap,
        CellQueries.PowerCap baselinePowerCap) {}
