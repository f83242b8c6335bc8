package dev.podium.query.page;

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
}
