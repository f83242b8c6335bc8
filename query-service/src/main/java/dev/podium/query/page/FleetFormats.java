package dev.podium.query.page;

import dev.podium.events.fleet.MinimumVersions;
import dev.podium.query.data.FleetUnitRow;
import io.quarkus.qute.TemplateExtension;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Display values of the fleet page, as {@code {fleet:counts(...)}}. CSS classes come from a fixed set, never from data. */
@TemplateExtension(namespace = "fleet")
public final class FleetFormats {

    private FleetFormats() {}

    /** Job counts per state without the zeros, e.g. {@code 4 done · 2 assigned}; {@code no jobs} when there are none. */
    public static String counts(Map<String, Integer> states) {
        String s = states.entrySet().stream()
                .filter(e -> e.getValue() != null && e.getValue() > 0)
                .map(e -> e.getValue() + " " + e.getKey())
                .collect(Collectors.joining(" · "));
        return s.isEmpty() ? "no jobs" : s;
    }

    /** The badge class of a job state or a run status. */
    public static String stateClass(String state) {
        if (state == null) {
            return "badge";
        }
        return switch (state) {
            case "assigned", "running", "claimed" -> "badge badge-baseline";
            case "done", "completed" -> "badge badge-online";
            case "failed" -> "badge badge-offline";
            case "cancelled", "superseded" -> "badge badge-warn";
            default -> "badge";
        };
    }

    /** A list of names, or a dash when empty. */
    public static String names(List<String> names) {
        return names == null || names.isEmpty() ? "—" : String.join(", ", names);
    }

    /** Runs that succeeded of those that ended, e.g. {@code 3 of 4 (75.0%)}; a dash before any ended. */
    public static String successRate(FleetUnitRow u) {
        if (u.ended() == 0) {
            return "—";
        }
        return u.succeeded() + " of " + u.ended() + " (" + Formats.pct((double) u.succeeded() / u.ended()) + ")";
    }

    /** An accelerator's identity, or what a unit without one stands for. */
    public static String identity(String device) {
        return device == null || device.isEmpty() ? "whole host" : device;
    }

    /** A robust z-score with two decimals and its sign. */
    public static String z(Double z) {
        return z == null ? "—" : (z > 0 ? "+" : "") + Formats.num(z);
    }

    /** How a finding of the version audit reads. */
    public static String verdict(MinimumVersions.Finding f) {
        return switch (f.verdict()) {
            case PASS -> "pass";
            case FAIL -> "fail";
            case NOT_REPORTED -> "fail: not reported";
            case NO_MINIMUM -> "no minimum";
        };
    }

    /** The badge class of a finding of the version audit. */
    public static String verdictClass(MinimumVersions.Finding f) {
        return switch (f.verdict()) {
            case PASS -> "badge badge-online";
            case FAIL, NOT_REPORTED -> "badge badge-offline";
            case NO_MINIMUM -> "badge";
        };
    }
}
