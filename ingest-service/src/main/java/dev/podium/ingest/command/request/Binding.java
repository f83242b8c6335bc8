package dev.podium.ingest.command.request;

import dev.podium.ingest.command.problem.FieldViolation;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A body bound to a record: the value (null when Jackson could not finish) and every binding problem met on the way,
 * unknown fields and values of the wrong type, each named by its field.
 */
public record Binding<T>(T value, List<FieldViolation> problems) {

    public Binding {
        problems = List.copyOf(problems);
    }

    /** The same binding with its value changed, such as query parameters put in place of the body's fields. */
    public Binding<T> with(UnaryOperator<T> change) {
        return value == null ? this : new Binding<>(change.apply(value), problems);
    }
}
