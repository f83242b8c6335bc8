package dev.podium.query.stats;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One setting in which a ratio's two sides differ: the values each side's counted runs recorded ("not recorded" where
 * none did). Settings both sides agree on are left out, so what is listed is what may explain the ratio.
 */
public record ConfigDifference(String setting, List<String> values, List<String> baselineValues) {

    static final String NOT_RECORDED = "not recorded";

    /** The settings in which {@code side} and {@code baseline} (setting to the values its runs recorded) differ, by name. */
    public static List<ConfigDifference> between(
            Map<String, ? extends Set<String>> side, Map<String, ? extends Set<String>> baseline) {
        SortedSet<String> settings = new TreeSet<>(side.keySet());
        settings.addAll(baseline.keySet());
        return settings.stream()
                .filter(s -> !Objects.equals(side.get(s), baseline.get(s)))
                .map(s -> new ConfigDifference(s, values(side.get(s)), values(baseline.get(s))))
                .toList();
    }

    private static List<String> values(Set<String> values) {
        return values == null || values.isEmpty() ? List.of(NOT_RECORDED) : List.copyOf(new TreeSet<>(values));
    }

    /** "535.104 / 550.54" for one side, the baseline's after the slash. */
    public String text() {
        return String.join(", ", values) + " / " + String.join(", ", baselineValues);
    }
}
