package dev.podium.query.data;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** Where an adaptive campaign stands ({@code campaign_adaptive.state}, V126 and V127), and how a page says it. */
public enum AdaptiveState {
    RUNNING("running", "running"),
    TARGET_MET("target_met", "stopped: target met"),
    BUDGET_SPENT("budget_spent", "stopped: budget spent"),
    CANCELLED("cancelled", "stopped: cancelled");

    private final String column;
    private final String text;

    AdaptiveState(String column, String text) {
        this.column = column;
        this.text = text;
    }

    /** The state as the table stores it, which is also what the JSON API gives. */
    @JsonValue
    public String column() {
        return column;
    }

    public String text() {
        return text;
    }

    /** The state a column holds; null for a campaign that is not adaptive (no row). */
    public static AdaptiveState of(String column) {
        if (column == null) {
            return null;
        }
        return Arrays.stream(values())
                .filter(s -> s.column.equals(column))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("campaign_adaptive holds an unknown state " + column));
    }
}
