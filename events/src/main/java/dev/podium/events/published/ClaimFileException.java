package dev.podium.events.published;

import dev.podium.events.validate.Violation;
import java.util.List;

/**
 * A claim file that cannot be imported. Each problem names the file, the claim (by id, or by position when it has no id)
 * and the field, e.g. {@code bridgetower.yaml: claim 'h100-workers0': range: low 12.0 is above high 3.0}; the same
 * problems as {@link #violations()} name the field within the file as a path, {@code claims['h100-workers0'].range},
 * {@code claims[2].id} for a claim without an id, {@code $} for the file as a whole.
 */
public final class ClaimFileException extends RuntimeException {

    private final List<String> problems;
    private final List<Violation> violations;

    public ClaimFileException(List<String> problems, List<Violation> violations) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
        this.violations = List.copyOf(violations);
    }

    /** A problem of the file as a whole: {@code file: reason}. */
    static ClaimFileException ofFile(String file, String reason) {
        return new ClaimFileException(List.of(file + ": " + reason), List.of(new Violation("$", reason)));
    }

    public List<String> problems() {
        return problems;
    }

    /** The problems with their fields as paths within the file; over several files, each path starts with the file. */
    public List<Violation> violations() {
        return violations;
    }
}
