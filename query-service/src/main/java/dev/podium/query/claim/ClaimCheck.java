package dev.podium.query.claim;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A ratio claim checked by the rule: the figures it names, the ratio computed from them, the claimed value as stated,
 * the rule in words and the verdict. {@code computedRatio} is numerator over denominator (or the other way round for a
 * lower-is-better metric, so that it always reads "times faster"); {@code computed} is that ratio in the claim's own
 * form (times or percent more). Both are null when the claim cannot be checked. Its JSON names the derived fields after
 * the components in one order, not reflection's.
 */
@JsonPropertyOrder({
    "source",
    "claimId",
    "quote",
    "subject",
    "baseline",
    "numerator",
    "denominator",
    "computedRatio",
    "computed",
    "claimed",
    "rule",
    "verdict",
    "ratio2",
    "verdict_text"
})
public record ClaimCheck(
        String source,
        String claimId,
        String quote,
        String subject,
        String baseline,
        BigDecimal numerator,
        BigDecimal denominator,
        BigDecimal computedRatio,
        BigDecimal computed,
        String claimed,
        String rule,
        Verdict verdict) {

    /** The computed ratio to two decimals, e.g. {@code 2.64}, or null. */
    @JsonProperty("ratio2")
    public String ratio2() {
        return computedRatio == null
                ? null
                : computedRatio.setScale(2, RoundingMode.HALF_UP).toPlainString();
    }

    /** The verdict in words: holds, does not hold, cannot be checked. */
    @JsonProperty("verdict_text")
    public String verdictText() {
        return verdict.words();
    }
}
