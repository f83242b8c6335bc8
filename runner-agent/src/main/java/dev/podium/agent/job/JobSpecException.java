package dev.podium.agent.job;

import dev.podium.events.validate.Violation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A job spec that cannot run; the message names each field at fault and what is wrong with it, one per line
 * ({@code repetitions: must be between 1 and 100, was 0}).
 */
public class JobSpecException extends RuntimeException {

    /** The field that stands for the spec as a whole. */
    public static final String FILE = "(file)";

    private final List<Violation> violations;

    public JobSpecException(String field, String problem) {
        this(List.of(new Violation(field, problem)));
    }

    /** Every violation of a spec; a violation of the document as a whole ({@code $}) is named {@value #FILE}. */
    public JobSpecException(List<Violation> violations) {
        super(violations.stream()
                .map(v -> (v.field().equals("$") ? FILE : v.field()) + ": " + v.reason())
                .collect(Collectors.joining("\n")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
