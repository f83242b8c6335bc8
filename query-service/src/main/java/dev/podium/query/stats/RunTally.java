package dev.podium.query.stats;

import java.util.List;

/**
 * The runs one side of a ratio attempted under its key, those counted, and why each other run was left out (failed,
 * failed a validity check, superseded by a later lease, retracted, cancelled, unfinished), with how many.
 */
public record RunTally(int attempted, int counted, List<LeftOut> leftOut) {

    public static final RunTally NONE = new RunTally(0, 0, List.of());

    /** Runs left out for one reason. */
    public record LeftOut(String reason, int runs) {}

    /** "3 of 4 runs counted (1 failed a check)". */
    public String text() {
        StringBuilder s = new StringBuilder(counted + " of " + attempted + " runs counted");
        if (!leftOut.isEmpty()) {
            s.append(" (")
                    .append(String.join(
                            ", ",
                            leftOut.stream()
                                    .map(l -> l.runs() + " " + l.reason())
                                    .toList()))
                    .append(')');
        }
        return s.toString();
    }
}
