package dev.podium.events.bind;

import dev.podium.events.validate.Violation;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A document bound to a record: the value (null when Jackson could not finish) and every binding problem met on the way,
 * unknown fields and values of the wrong type, each named by its path.
 */
public record Binding<T>(T value, List<Violation> problems) {

    public Binding {
        problems = List.copyOf(problems);
    }

    /** The same binding with its value changed, such as query parameters put in place of the body's fields. */
    public Binding<T> with(UnaryOperator<T> change) {
        return value == null ? this : new Binding<>(change.apply(value), problems);
    }
}
