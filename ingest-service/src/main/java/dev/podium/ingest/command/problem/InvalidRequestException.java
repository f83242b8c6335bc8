package dev.podium.ingest.command.problem;

import java.util.List;

/** A request that breaks rules, each named; {@link ProblemMapper} answers it with every violation listed. */
public final class InvalidRequestException extends RuntimeException {

    private final List<FieldViolation> violations;

    public InvalidRequestException(List<FieldViolation> violations) {
        super(violations.size() + " violation(s), first " + violations.get(0).field());
        this.violations = List.copyOf(violations);
    }

    public static InvalidRequestException of(String field, String message) {
        return new InvalidRequestException(List.of(new FieldViolation(field, message)));
    }

    public List<FieldViolation> violations() {
        return violations;
    }
}
