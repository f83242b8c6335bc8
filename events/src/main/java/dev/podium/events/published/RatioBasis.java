package dev.podium.events.published;

import dev.podium.events.validate.Nullable;

/**
 * What a ratio claim compares. {@code numeratorClaimId} and {@code denominatorClaimId} name figures of the same source that
 * the ratio can be recomputed from; both null when the publication gave no figures (the claim then cannot be verified).
 * {@code baselineLabel} names the baseline in words, e.g. "NVIDIA A100 80GB" or "PyTorch eager on the same card".
 */
public record RatioBasis(
        String baselineLabel,
        @Nullable String numeratorClaimId,
        @Nullable String denominatorClaimId,
        RatioForm form) {

    /** How the ratio was written: "2.23x" is {@code TIMES}; "+3%" or "28% faster" is {@code PERCENT_MORE}. */
    public enum RatioForm {
        TIMES,
        PERCENT_MORE
    }
}
