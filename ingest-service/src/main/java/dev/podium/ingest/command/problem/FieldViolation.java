package dev.podium.ingest.command.problem;

import dev.podium.events.bind.DocumentBinder;
import jakarta.validation.ConstraintViolation;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * One broken rule of a request: the field as the client wrote it ({@code spec.repetitions}, {@code pools[1]},
 * {@code secrets.HF_TOKEN}; {@code $} for the body itself) and what is wrong with it. The message never holds the value.
 */
public record FieldViolation(String field, String message) {

    /** The field that stands for the whole body. */
    public static final String BODY = "$";

    /**
     * A Bean Validation violation named the way the body names it: Java names in snake_case as the JSON has them, list
     * indexes and map keys as written; the method and parameter of a resource are left out.
     */
    public static FieldViolation of(ConstraintViolation<?> violation) {
        return new FieldViolation(DocumentBinder.field(violation.getPropertyPath()), violation.getMessage());
    }

    /** The order of violations in an answer, by field: the same request always gets the same answer. */
    public static final Comparator<FieldViolation> BY_FIELD =
            Comparator.comparing(FieldViolation::field).thenComparing(FieldViolation::message);

    /** Bean Validation's violations, which come as a set, by field. */
    public static List<FieldViolation> all(Collection<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .map(FieldViolation::of)
                .sorted(BY_FIELD)
                .distinct()
                .toList();
    }
}
