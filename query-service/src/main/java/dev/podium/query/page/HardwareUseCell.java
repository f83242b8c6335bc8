package dev.podium.query.page;

/**
 * A leaderboard row's hardware-use columns as text: each figure (a percentage with half its 95% interval) with the
 * denominator it was divided by, or, for MFU, why there is no peak; {@code declared} where the work per unit came from a
 * job spec rather than the workload's own count.
 */
public record HardwareUseCell(
        String share,
        String shareOf,
        String mfu,
        String mfuOf,
        String noPeak,
        String mbu,
        String mbuOf,
        boolean declared) {}
