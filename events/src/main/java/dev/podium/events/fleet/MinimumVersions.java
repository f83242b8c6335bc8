package dev.podium.events.fleet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fleet's minimum driver, runtime and firmware versions per canonical device, read from {@value #RESOURCE} (kept in
 * the repository, each row with its source), and the audit of one host's reported versions against them.
 */
public final class MinimumVersions {

    public static final String RESOURCE = "/fleet/minimum-versions.csv";

    /** The components audited, in the order a page lists them. */
    public static final List<String> COMPONENTS = List.of("driver", "runtime", "firmware");

    private static final Pattern VERSION = Pattern.compile("\\d+(?:\\.\\d+)*");

    /** One row of the table. */
    public record Minimum(String deviceId, String component, String version, String source) {}

    /** How a reported version stands against its minimum. */
    public enum AuditVerdict {
        PASS,
        FAIL,
        NOT_REPORTED,
        NO_MINIMUM
    }

    /** One component of a host's audit. */
    public record Finding(String component, String reported, Minimum minimum, AuditVerdict verdict) {}

    private static final MinimumVersions TABLE = load();

    private final Map<String, Map<String, Minimum>> byDevice;

    private MinimumVersions(Map<String, Map<String, Minimum>> byDevice) {
        this.byDevice = byDevice;
    }

    /** The table of {@value #RESOURCE}. */
    public static MinimumVersions table() {
        return TABLE;
    }

    /** The minimum of a device's component, if the table has one. */
    public Optional<Minimum> minimum(String deviceId, String component) {
        return Optional.ofNullable(byDevice.getOrDefault(deviceId, Map.of()).get(component));
    }

    /** A host's versions (each may be null) audited component by component, in {@link #COMPONENTS} order. */
    public List<Finding> audit(String deviceId, String driver, String runtime, String firmware) {
        List<String> reported = java.util.Arrays.asList(driver, runtime, firmware);
        List<Finding> out = new ArrayList<>();
        for (int i = 0; i < COMPONENTS.size(); i++) {
            String component = COMPONENTS.get(i);
            Minimum m = minimum(deviceId, component).orElse(null);
            out.add(new Finding(component, reported.get(i), m, verdict(reported.get(i), m)));
        }
        return out;
    }

    /** Whether an audit passes: no component below its minimum or missing where there is one. */
    public static boolean passes(List<Finding> findings) {
        return findings.stream()
                .noneMatch(f -> f.verdict() == AuditVerdict.FAIL || f.verdict() == AuditVerdict.NOT_REPORTED);
    }

    static AuditVerdict verdict(String reported, Minimum minimum) {
        if (minimum == null) {
            return AuditVerdict.NO_MINIMUM;
        }
        Optional<int[]> have = numbers(reported);
        if (have.isEmpty()) {
            return AuditVerdict.NOT_REPORTED;
        }
        return compare(have.get(), numbers(minimum.version()).orElseThrow()) >= 0
                ? AuditVerdict.PASS
                : AuditVerdict.FAIL;
    }

    /** The first dotted number of a version text: "CUDA 12.4" is [12, 4]; empty when there is none. */
    static Optional<int[]> numbers(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = VERSION.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        String[] parts = m.group().split("\\.");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parts[i].length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(parts[i]);
        }
        return Optional.of(out);
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? a[i] : 0;
            int y = i < b.length ? b[i] : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    private static MinimumVersions load() {
        Map<String, Map<String, Minimum>> out = new TreeMap<>();
        try (InputStream in = MinimumVersions.class.getResourceAsStream(RESOURCE);
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            boolean header = true;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                Minimum m = row(line);
                out.computeIfAbsent(m.deviceId(), d -> new TreeMap<>()).put(m.component(), m);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return new MinimumVersions(out);
    }

    /** device_id,component,minimum,"source" (the source is the rest of the line, its quotes taken off). */
    private static Minimum row(String line) {
        String[] f = line.split(",", 4);
        if (f.length != 4 || !COMPONENTS.contains(f[1]) || numbers(f[2]).isEmpty()) {
            throw new IllegalStateException(RESOURCE + ": not a row of device_id,component,minimum,source: " + line);
        }
        String source = f[3].strip();
        if (source.length() >= 2 && source.startsWith("\"") && source.endsWith("\"")) {
            source = source.substring(1, source.length() - 1);
        }
        return new Minimum(f[0].strip(), f[1].strip(), f[2].strip(), source);
    }
}
