package dev.podium.agent.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain table that nvidia-smi prints and hl-smi imitates: one row per device with its index, name and bus id
 * ({@code rowPattern} groups 2 and 4), followed by a row with "used MiB / total MiB", under a header that names the
 * driver version.
 */
final class SmiTable {

    private static final Pattern MEMORY = Pattern.compile("\\|\\s*\\d+MiB\\s*/\\s*(\\d+)MiB\\s*\\|");

    private SmiTable() {}

    /** {@code runtimeOfDriver} turns the driver version (possibly null) into the runtime the devices report. */
    static List<DetectedDevice> parse(
            String table,
            Pattern driverPattern,
            Pattern rowPattern,
            String vendor,
            Function<String, String> runtimeOfDriver) {
        Matcher dm = driverPattern.matcher(table);
        String driver = dm.find() ? dm.group(1) : null;
        String runtime = runtimeOfDriver.apply(driver);
        List<DetectedDevice> out = new ArrayList<>();
        String[] lines = table.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = rowPattern.matcher(lines[i]);
            if (!m.find()) {
                continue;
            }
            long mem = 0;
            if (i + 1 < lines.length) {
                Matcher mm = MEMORY.matcher(lines[i + 1]);
                if (mm.find()) {
                    mem = Long.parseLong(mm.group(1)) * 1024 * 1024;
                }
            }
            out.add(new DetectedDevice(vendor, m.group(2).strip(), mem, driver, null, runtime, m.group(4)));
        }
        return out;
    }
}
