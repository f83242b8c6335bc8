package dev.podium.query.page;

import io.quarkus.qute.TemplateExtension;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Display formats for templates, used as {@code {fmt:num(value)}}; each accepts null and shows a dash. */
@TemplateExtension(namespace = "fmt")
public final class Formats {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private Formats() {}

    /** From this size on a value is written with a power of ten: its digits in full would not fit a cell. */
    static final double SCIENTIFIC_FROM = 1e12;

    /**
     * A measured value: one decimal from 100 up, two from 1, else three significant places; three significant places
     * and a power of ten from {@link #SCIENTIFIC_FROM} on.
     */
    public static String num(Double v) {
        if (v == null || v.isNaN()) {
            return "—";
        }
        double a = Math.abs(v);
        if (a >= SCIENTIFIC_FROM && !v.isInfinite()) {
            return scientific(BigDecimal.valueOf(v));
        }
        return a >= 100 ? fixed(v, 1) : a >= 1 ? fixed(v, 2) : String.format(Locale.ROOT, "%.3g", v);
    }

    /** Three significant places and a power of ten, such as 9.05e+149; also for numbers beyond a double's range. */
    static String scientific(BigDecimal v) {
        return String.format(Locale.ROOT, "%.2e", v);
    }

    /**
     * {@code String.format(Locale.ROOT, "%.<decimals>f", v)}, which pages call for every cell and which is slow: done in
     * doubles unless {@code v} lies so close to a rounding boundary (or is so large) that the doubles' error could matter.
     */
    static String fixed(double v, int decimals) {
        double scale = decimals == 1 ? 10 : 100;
        double scaled = v * scale;
        double fraction = Math.abs(scaled - Math.floor(scaled));
        if (!Double.isFinite(scaled) || Math.abs(scaled) > 1e12 || Math.abs(fraction - 0.5) < 1e-6) {
            return String.format(Locale.ROOT, decimals == 1 ? "%.1f" : "%.2f", v);
        }
        long units = Math.abs(Math.round(scaled));
        long whole = units / (long) scale;
        long part = units % (long) scale;
        StringBuilder sb = new StringBuilder(24);
        if (v < 0 || (v == 0 && 1 / v < 0)) {
            sb.append('-');
        }
        sb.append(whole).append('.');
        if (decimals == 2 && part < 10) {
            sb.append('0');
        }
        return sb.append(part).toString();
    }

    /** Half the width of a 95% interval, e.g. {@code ± 3.2}. */
    public static String ci(Double low, Double high) {
        if (low == null || high == null) {
            return "";
        }
        return "± " + num((high - low) / 2);
    }

    /** A coefficient of variation as a percentage. */
    public static String pct(Double v) {
        return v == null ? "—" : v.isNaN() ? String.format(Locale.ROOT, "%.1f%%", v) : fixed(v * 100, 1) + "%";
    }

    public static String time(Instant t) {
        return t == null ? "—" : TIME.format(t);
    }

    public static String text(Object o) {
        return o == null ? "—" : o.toString();
    }

    /** A run's status with its validity: completed, completed (invalid), failed, retracted... */
    public static String status(String status, Boolean valid, boolean retracted) {
        String s = status == null ? "unknown" : status;
        if (Boolean.FALSE.equals(valid)) {
            s += " (invalid)";
        }
        return retracted ? s + ", retracted" : s;
    }

    public static String device(String deviceId) {
        return dev.podium.query.view.Labels.device(deviceId);
    }

    /**
     * False for a device id the alias table does not know (text an agent chose), which pages mark "unknown device"; true
     * for none, whose label already says so.
     */
    public static boolean knownDevice(String deviceId) {
        return deviceId == null || dev.podium.events.device.DeviceAliases.known(deviceId);
    }

    /** One of what a rate counts, for "J per sample": "samples" is "sample", "queries" is "query"; null stays null. */
    public static String singular(String plural) {
        if (plural == null || plural.length() < 2 || plural.endsWith("ss")) {
            return plural;
        }
        if (plural.endsWith("ies") && plural.length() > 3) {
            return plural.substring(0, plural.length() - 3) + "y";
        }
        return plural.endsWith("s") ? plural.substring(0, plural.length() - 1) : plural;
    }

    public static String runLink(Object runId) {
        return dev.podium.query.view.Links.run(runId);
    }

    public static String deviceLink(String deviceId) {
        return dev.podium.query.view.Links.device(deviceId);
    }

    public static String keyLink(String keyId) {
        return "/keys/" + dev.podium.query.view.Links.segment(keyId);
    }

    public static String benchmarkLink(String benchmark) {
        return dev.podium.query.view.Links.benchmark(benchmark);
    }

    /** The CSS class of a verdict, from a fixed set. */
    public static String verdictClass(dev.podium.query.claim.Verdict v) {
        return switch (v) {
            case HOLDS -> "verdict-holds";
            case DOES_NOT_HOLD -> "verdict-fails";
            case CANNOT_BE_CHECKED -> "verdict-unknown";
        };
    }

    /** The CSS class of an equivalence verdict: a difference beyond the margin, one within it, the same, or open. */
    public static String equivalenceClass(dev.podium.query.stats.Equivalence.Call call) {
        return switch (call) {
            case FASTER, SLOWER -> "eq eq-differs";
            case FASTER_WITHIN, SLOWER_WITHIN -> "eq eq-within";
            case SAME -> "eq eq-same";
            case INCONCLUSIVE -> "eq eq-open";
        };
    }

    /** The runs a side that settle a verdict, "12 runs a side" (or "over 10000" past what any campaign runs). */
    public static String runsText(dev.podium.query.stats.RunsNeeded runs) {
        int most = runs.most();
        return (most >= dev.podium.query.stats.RunsNeeded.MOST ? "over " + most : Integer.toString(most))
                + " runs a side";
    }

    /** The CSS class of a source badge, from a fixed set. */
    public static String sourceClass(String source) {
        return "published".equals(source) ? "badge badge-published" : "badge badge-measured";
    }
}
