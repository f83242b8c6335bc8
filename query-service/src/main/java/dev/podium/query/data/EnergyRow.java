package dev.podium.query.data;

import java.math.BigDecimal;

/**
 * One row of proj_energy_cell: over a device's completed, not retracted runs under a key that recorded power in their
 * measured window, the sums of their joules per unit, device-seconds per unit and window watts, with the squares and
 * product an interval needs, for the counted runs and, apart, those that failed a check.
 */
public record EnergyRow(String keyId, String deviceId, Sums counted, Sums failing) {

    /** The sums over one set of runs: x = joules per unit, y = device-seconds per unit. */
    public record Sums(
            int runs,
            BigDecimal joules,
            BigDecimal joulesSq,
            BigDecimal watts,
            BigDecimal deviceSeconds,
            BigDecimal deviceSecondsSq,
            BigDecimal joulesDeviceSeconds) {

        Sums plus(Sums o) {
            return new Sums(
                    runs + o.runs,
                    joules.add(o.joules),
                    joulesSq.add(o.joulesSq),
                    watts.add(o.watts),
                    deviceSeconds.add(o.deviceSeconds),
                    deviceSecondsSq.add(o.deviceSecondsSq),
                    joulesDeviceSeconds.add(o.joulesDeviceSeconds));
        }
    }

    /** The counted runs' sums, with those that failed a check added when {@code includingFailing}. */
    public Sums sums(boolean includingFailing) {
        return includingFailing ? counted.plus(failing) : counted;
    }

    /** The mean joules per unit over the counted runs (and those that failed a check, when {@code includingFailing}). */
    public Double joulesPerUnit(boolean includingFailing) {
        Sums s = sums(includingFailing);
        return s.runs() == 0 ? null : s.joules().doubleValue() / s.runs();
    }

    /** The mean of the runs' system power over their measured windows, in watts, over the same runs. */
    public Double systemWatts(boolean includingFailing) {
        Sums s = sums(includingFailing);
        return s.runs() == 0 ? null : s.watts().doubleValue() / s.runs();
    }
}
