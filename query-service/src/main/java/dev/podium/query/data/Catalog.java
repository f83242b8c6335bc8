package dev.podium.query.data;

import dev.podium.events.device.DeviceAliases;
import java.util.stream.Collectors;

/**
 * SQL conditions on catalogue entries, for the public lists: what an admin hid ({@code proj_hidden_catalog}, one primary
 * key probe per name, a table as large as what admins hid) is left out, and a device is known when the alias table has
 * its id or it is a CPU id of the shape {@link DeviceAliases#cpuDeviceId} makes ({@link DeviceAliases#known}).
 */
public final class Catalog {

    private Catalog() {}

    /** True where the benchmark named by the SQL expression {@code column} is not hidden. */
    public static String shownBenchmark(String column) {
        return shown("benchmark", column);
    }

    /** True where the comparison key whose id is {@code column} is not hidden. */
    public static String shownKey(String column) {
        return shown("key", column);
    }

    /** True where the device whose id is {@code column} is not hidden. */
    public static String shownDevice(String column) {
        return shown("device", column);
    }

    /** True where a run row (alias {@code run}) names no hidden benchmark, key or device. */
    public static String shownRun(String run) {
        return shownBenchmark(run + ".benchmark") + " AND " + shownKey(run + ".key_id") + " AND "
                + shownDevice(run + ".device_id");
    }

    private static String shown(String kind, String column) {
        return "NOT EXISTS (SELECT 1 FROM proj_hidden_catalog h WHERE h.kind = '" + kind + "' AND h.name = " + column
                + " AND h.hidden)";
    }

    /** The alias table's ids as an SQL list; they are ours, of letters, digits and hyphens, quoted all the same. */
    private static final String KNOWN_IDS = DeviceAliases.ids().stream()
            .map(id -> "'" + id.replace("'", "''") + "'")
            .collect(Collectors.joining(", "));

    /** True where the device id {@code column} is known, as {@link DeviceAliases#known} says. */
    public static String knownDevice(String column) {
        return "(" + column + " IN (" + KNOWN_IDS + ") OR " + column + " ~ '^" + DeviceAliases.CPU_ID_PATTERN + "$')";
    }
}
