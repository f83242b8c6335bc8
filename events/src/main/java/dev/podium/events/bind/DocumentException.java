package dev.podium.events.bind;

import dev.podium.events.validate.Violation;
import java.util.List;

/**
 * A document that is not valid: every violation, each with its path. When the text did not even parse, the one
 * violation is at {@code $} and the cause is the parser's exception, for a caller that says where in its own words.
 */
public final class DocumentException extends RuntimeException {

    private final List<Violation> violations;

    public DocumentException(List<Violation> violations, Throwable cause) {
        super(violations.size() + " violation(s), first " + violations.get(0), cause);
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
