package dev.podium.ingest.projection;

import java.util.Map;
import java.util.UUID;

/**
 * What one run adds to the fleet view: its unit's run counts by {@link Outcome}, and, when it counted, each metric's mean
 * to its unit's cell under the run's comparison key. Stored per run ({@code proj_fleet_run}) so that a later batch
 * takes back exactly what an earlier one added.
 */
record FleetRun(UUID runId, Unit unit, String keyId, Outcome outcome, Map<String, Double> means) {

    /** What a run measured on: a host in a pool, and its one accelerator's identity ('' when it used several). */
    record Unit(String pool, String hostKey, String device) implements Comparable<Unit> {

        @Override
        public int compareTo(Unit o) {
            int c = pool.compareTo(o.pool);
            c = c != 0 ? c : hostKey.compareTo(o.hostKey);
            return c != 0 ? c : device.compareTo(o.device);
        }
    }

    /**
     * How a run stands. Succeeded: completed and valid; invalid: completed, a check failed. A superseded or retracted run
     * is set aside: it counts nowhere.
     */
    enum Outcome {
        RUNNING,
        SUCCEEDED,
        INVALID,
        FAILED,
        CANCELLED,
        SET_ASIDE;

        static Outcome of(String status, Boolean valid, boolean retracted) {
            if (retracted) {
                return SET_ASIDE;
            }
            return switch (status) {
                case "completed" -> Boolean.TRUE.equals(valid) ? SUCCEEDED : INVALID;
                case "failed" -> FAILED;
                case "cancelled" -> CANCELLED;
                case "claimed", "running" -> RUNNING;
                default -> SET_ASIDE;
            };
        }
    }

    /** Whether its means belong in its cells: a valid completed run under a comparison key. */
    boolean counted() {
        return outcome == Outcome.SUCCEEDED && keyId != null;
    }

    /** What a unit row shows besides its counts, from the unit's latest run: names and versions to audit. */
    record About(
            String hostname,
            String agentId,
            String deviceId,
            String driver,
            String runtime,
            String firmware,
            long startedPosition,
            Map<String, String> metricUnits) {}
}
