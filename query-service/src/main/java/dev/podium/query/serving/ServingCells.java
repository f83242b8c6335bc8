package dev.podium.query.serving;

import dev.podium.query.page.Formats;
import dev.podium.query.stats.Equivalence;
import io.quarkus.qute.TemplateExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Display values of the serving view's points, as properties ({@code {p.xText}}). */
@TemplateExtension
public final class ServingCells {

    private ServingCells() {}

    public static String xText(ServingView.Point p) {
        return Formats.num(p.x());
    }

    public static String yText(ServingView.Point p) {
        return Formats.num(p.y());
    }

    /** The 95% interval of y per accelerator, or a dash where a single run gives none. */
    public static String intervalText(ServingView.Point p) {
        return p.yLow() == null ? "—" : Formats.num(p.yLow()) + " – " + Formats.num(p.yHigh());
    }

    /** "ttft_p99_ms ≤ 150 ms" or "output_token_throughput_per_user ≥ 30 tok/s/user". */
    public static String text(ServingView.Target t) {
        return t.metric() + (t.lowerIsBetter() ? " \u2264 " : " \u2265 ") + Formats.num(t.value()) + " " + t.unit();
    }

    /**
     * y at the target, or why there is none: "not reached" (every point misses it), "above every point" ("below" for a
     * higher-is-better metric: every point meets it, and no value beyond the points is made up), "not measured".
     */
    public static String valueText(AtTarget a, boolean lowerIsBetter) {
        return switch (a.status()) {
            case REACHED -> Formats.num(a.value());
            case NOT_REACHED -> "not reached";
            case BEYOND_EVERY_POINT -> lowerIsBetter ? "above every point" : "below every point";
            case NOT_MEASURED -> "not measured";
        };
    }

    /** The 95% interval of y at the target, or a dash where a point it rests on has none. */
    public static String intervalText(AtTarget a) {
        return a.low() == null ? "\u2014" : Formats.num(a.low()) + " \u2013 " + Formats.num(a.high());
    }

    /** The parameter values y at the target lies between: "8 \u2013 64", "8" on a point, empty where not reached. */
    public static String between(AtTarget a) {
        return a.from() == null ? "" : a.from().equals(a.to()) ? a.from() : a.from() + " \u2013 " + a.to();
    }

    /** "1.23\u00d7 (1.10 \u2013 1.38)", or why there is no ratio. */
    public static String ratioText(ServingView.Ratio r) {
        return r.interval() == null
                ? r.note()
                : times(r.interval().ratio()) + "\u00d7 (" + times(r.interval().low()) + " \u2013 "
                        + times(r.interval().high()) + ")";
    }

    /** The ratio's verdict at the page's margin, or a dash without an interval. */
    public static String verdictText(ServingView.Ratio r) {
        return r.equivalence() == null ? "\u2014" : r.equivalence().text();
    }

    public static String verdictClass(ServingView.Ratio r) {
        return r.equivalence() == null
                ? "eq"
                : Formats.equivalenceClass(r.equivalence().call());
    }

    /** The runs a side that settle the verdict, or empty without one. */
    public static String runsText(ServingView.Ratio r) {
        Equivalence e = r.equivalence();
        return e == null ? "" : Formats.runsText(e.runs());
    }

    /** The query's parameters as a query string, for the CSV of the same view. */
    public static String csvQuery(ServingQuery q) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("benchmark", q.benchmark());
        params.put("x", q.x());
        params.put("y", q.y());
        params.put("param", q.param());
        params.put("target_metric", q.targetMetric());
        params.put("target", q.target());
        params.put("baseline", q.baseline());
        params.put("margin", q.margin());
        return params.entrySet().stream()
                .filter(e -> e.getValue() != null)
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue().toString(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static String times(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
