package dev.podium.query.page;

import io.quarkus.qute.TemplateExtension;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Display formats for templates, used as {@code {fmt:num(value)}}; each accepts null and shows a dash. */
@TemplateExtension(namespace = "fmt")
public final class Formats {

    private static final Map<Double, String> NUMBERS = new ConcurrentHashMap<>();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private Formats() {
    }

    /**
     * A measured value: one decimal from 100 up, two from 1, else three significant places. Pages show the same values of
     * the read models again and again, and {@code String.format} is costly, so texts are remembered (a bounded number).
     */
    public static String num(Double v) {
        if (v == null || v.isNaN()) {
            return "—";
        }
        String text = NUMBERS.get(v);
        if (text == null) {
            double a = Math.abs(v);
            String pattern = a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g";
            text = String.format(Locale.ROOT, pattern, v);
            if (NUMBERS.size() >= 100_000) {
                NUMBERS.clear();
            }
            NUMBERS.put(v, text);
        }
        return text;
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
        return v == null ? "—" : String.format(Locale.ROOT, "%.1f%%", v * 100);
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

    /** The CSS class of a source badge, from a fixed set. */
    public static String sourceClass(String source) {
        return "published".equals(source) ? "badge badge-published" : "badge badge-measured";
    }
}
