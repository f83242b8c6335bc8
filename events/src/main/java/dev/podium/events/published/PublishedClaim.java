package dev.podium.events.published;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import dev.podium.events.validate.Text;

/**
 * A figure or claim from a publication, kept as the publication stated it.
 *
 * <p>A <em>figure</em> ({@code ratio} null) is an absolute value in {@code unit} for one device under {@code key}, e.g.
 * Gaudi 2 at 601.5 samples/s. A <em>ratio claim</em> ({@code ratio} set) says how many times (or percent) faster the
 * subject is than a baseline, e.g. "1.79x"; when it names the figures it comes from, Podium recomputes it and gives a
 * verdict. {@code value} may be an exact value, a range, a bound or "n/a".
 *
 * @param claimId    unique within the source, e.g. {@code gaudi2-workers0}
 * @param source     slug of the publication, e.g. {@code hf-habana-bridgetower}
 * @param deviceId   canonical device id of the subject, or null when the claim is not about one device
 * @param deviceCount accelerators of that device in the measured system, or null when not stated
 */
public record PublishedClaim(
        String claimId,
        String source,
        @Nullable String sourceTitle,
        @Nullable String sourceUrl,
        @Text String quote,
        @Nullable String deviceId,
        @Nullable String deviceLabel,
        @Nullable @NonNegative Integer deviceCount,
        @Nullable ComparisonKey key,
        String metric,
        String unit,
        Direction direction,
        ClaimValue value,
        @Nullable Precision precision,
        @Nullable RatioBasis ratio) {

    /** True for a ratio claim. Not part of the JSON: {@code is}-named methods would otherwise be written as a property. */
    @JsonIgnore
    public boolean isRatio() {
        return ratio != null;
    }
}
