package dev.podium.query.data;

/**
 * A host, or one accelerator of it, in a pool ({@code proj_fleet_unit}): its runs by outcome, and the device and
 * versions its latest run reported. {@code device} is the accelerator's identity, '' for runs on several.
 */
public record FleetUnitRow(
        String pool,
        String hostKey,
        String device,
        String hostname,
        String agentId,
        String deviceId,
        String driver,
        String runtime,
        String firmware,
        long runs,
        long succeeded,
        long invalid,
        long failed,
        long cancelled) {

    /** Runs that ended with a result or a failure: what a success rate divides by (cancelled ones are not). */
    public long ended() {
        return succeeded + invalid + failed;
    }
}
