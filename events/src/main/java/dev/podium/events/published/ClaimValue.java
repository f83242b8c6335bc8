package dev.podium.events.published;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.podium.events.validate.Nullable;

/** What a publication stated: one value, a range, a bound, or nothing ("n/a" cells stay n/a). */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ClaimValue.Exact.class, name = "value"),
    @JsonSubTypes.Type(value = ClaimValue.Range.class, name = "range"),
    @JsonSubTypes.Type(value = ClaimValue.Bound.class, name = "bound"),
    @JsonSubTypes.Type(value = ClaimValue.NotAvailable.class, name = "n/a")
})
public sealed interface ClaimValue {

    /** A single stated value, e.g. 601.5 or 1.79. */
    record Exact(double value) implements ClaimValue {}

    /** A stated range, e.g. "3x-12x" is low 3, high 12. */
    record Range(double low, double high) implements ClaimValue {}

    /** A stated bound, e.g. "more than 3x" is operator {@code >} and value 3. */
    record Bound(BoundOperator operator, double value) implements ClaimValue {}

    /** The publication gave no figure here ("n/a"); {@code note} says why when it did. */
    record NotAvailable(@Nullable String note) implements ClaimValue {}

    enum BoundOperator {
        GREATER_THAN,
        AT_LEAST,
        LESS_THAN,
        AT_MOST
    }
}
