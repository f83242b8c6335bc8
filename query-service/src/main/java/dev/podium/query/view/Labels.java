package dev.podium.query.view;

import dev.podium.events.device.DeviceAliases;
import java.util.Locale;

/** Display names and orderings shared by the views. */
public final class Labels {

    private Labels() {}

    /** A device's label from the alias table (a CPU's from its id), or its id when the table does not know it. */
    public static String device(String deviceId) {
        if (deviceId == null) {
            return "unknown device";
        }
        return DeviceAliases.label(deviceId).orElse(deviceId);
    }

    public static boolean lowerIsBetter(String direction) {
        return direction != null && direction.toUpperCase(Locale.ROOT).startsWith("LOWER");
    }

    /** Orders dimension values numerically when both are numbers, else as text; absent values last. */
    public static int compareValues(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        try {
            return Double.compare(Double.parseDouble(a), Double.parseDouble(b));
        } catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }
}
