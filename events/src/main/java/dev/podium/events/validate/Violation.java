package dev.podium.events.validate;

/** One broken rule: the field as a path ({@code payload.metrics[0].values[2]}, or {@code $} for the record) and why. */
public record Violation(String field, String reason) {

    @Override
    public String toString() {
        return field + ": " + reason;
    }
}
