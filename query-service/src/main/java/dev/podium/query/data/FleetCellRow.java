package dev.podium.query.data;

/**
 * One unit's figure under a pool, comparison key and metric ({@code proj_fleet_cell}), with where it lies in the pool's
 * distribution: the robust z-score and its evidence (the pool's median and MAD, its mean absolute deviation, and how
 * many agents it holds). {@code device} is the accelerator's identity, '' for a run on several.
 */
public record FleetCellRow(
        String pool,
        String keyId,
        String metric,
        String hostKey,
        String device,
        String hostname,
        String agentId,
        String unit,
        long runs,
        double mean,
        Double median,
        Double mad,
        Double meanAbsoluteDeviation,
        Integer agents,
        Double z) {}
