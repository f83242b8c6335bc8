package dev.podium.query.claim;

import dev.podium.events.model.Direction;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.Precision;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.published.RatioBasis.RatioForm;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;

/**
 * DESIGN.md's rule for a published ratio claim: it holds when the ratio computed from the figures it names rounds to the
 * claimed value at the precision it was stated with. {@code TIMES}: round(num / den, d) = claimed; {@code PERCENT_MORE}:
 * round((num / den - 1) * 100, d) = claimed. "About" widens the rule to plus or minus one unit in the last digit. A range
 * holds when the rounded value lies within it, a bound when it lies beyond it. A claim without figures, or whose figures
 * are n/a, cannot be checked. For a lower-is-better metric (time per image) "faster" is baseline over subject.
 */
public final class ClaimRule {

    private static final MathContext MC = MathContext.DECIMAL64;

    private ClaimRule() {}

    /** Checks {@code claim} against the figures of its source, looked up by claim id. */
    public static ClaimCheck check(PublishedClaim claim, Map<String, PublishedClaim> figuresById) {
        RatioBasis basis = claim.ratio();
        String subject = claim.deviceLabel() != null ? claim.deviceLabel() : claim.deviceId();
        if (basis == null) {
            return cannot(claim, subject, null, "not a ratio claim");
        }
        String claimed = claimedText(claim.value(), basis.form());
        if (basis.numeratorClaimId() == null || basis.denominatorClaimId() == null) {
            return cannot(claim, subject, claimed, "the publication names no figures to recompute it from");
        }
        Optional<BigDecimal> num = figure(figuresById.get(basis.numeratorClaimId()));
        Optional<BigDecimal> den = figure(figuresById.get(basis.denominatorClaimId()));
        if (num.isEmpty() || den.isEmpty() || den.get().signum() == 0) {
            return cannot(
                    claim,
                    subject,
                    claimed,
                    "a figure it names (" + basis.numeratorClaimId() + ", " + basis.denominatorClaimId()
                            + ") is missing or n/a");
        }
        PublishedClaim numFigure = figuresById.get(basis.numeratorClaimId());
        boolean lowerIsBetter = numFigure.direction() == Direction.LOWER_IS_BETTER;
        BigDecimal ratio =
                lowerIsBetter ? den.get().divide(num.get(), MC) : num.get().divide(den.get(), MC);
        BigDecimal computed = basis.form() == RatioForm.PERCENT_MORE
                ? ratio.subtract(BigDecimal.ONE).multiply(BigDecimal.valueOf(100))
                : ratio;
        String formula = (lowerIsBetter
                        ? plain(den.get()) + " / " + plain(num.get())
                        : plain(num.get()) + " / " + plain(den.get()))
                + (basis.form() == RatioForm.PERCENT_MORE ? " − 1, in percent," : "");
        Evaluation e = evaluate(computed, claim.value(), claim.precision(), basis.form());
        String rule = formula + " = " + plain(computed.round(new MathContext(6))) + e.ruleText();
        return new ClaimCheck(
                claim.source(),
                claim.claimId(),
                claim.quote(),
                subject,
                basis.baselineLabel(),
                num.get(),
                den.get(),
                ratio,
                computed,
                claimed,
                rule,
                e.verdict());
    }

    private record Evaluation(Verdict verdict, String ruleText) {}

    static Evaluation evaluate(BigDecimal computed, ClaimValue value, Precision precision, RatioForm form) {
        String unit = form == RatioForm.PERCENT_MORE ? "%" : "x";
        if (value instanceof ClaimValue.Exact exact) {
            BigDecimal claimed = BigDecimal.valueOf(exact.value());
            int d = decimals(precision, claimed);
            boolean approximate = precision != null && precision.approximate();
            BigDecimal rounded = computed.setScale(d, RoundingMode.HALF_UP);
            BigDecimal target = claimed.setScale(d, RoundingMode.HALF_UP);
            BigDecimal tolerance = approximate ? BigDecimal.ONE.movePointLeft(d) : BigDecimal.ZERO;
            boolean holds = rounded.subtract(target).abs().compareTo(tolerance) <= 0;
            String text =
                    "; rounded to " + d + (d == 1 ? " decimal" : " decimals") + ": " + rounded.toPlainString() + unit
                            + "; holds when that "
                            + (approximate
                                    ? "is within ± " + tolerance.toPlainString() + " of " + target.toPlainString()
                                            + unit + " (\"about\")"
                                    : "equals " + target.toPlainString() + unit);
            return new Evaluation(holds ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD, text);
        }
        if (value instanceof ClaimValue.Range range) {
            BigDecimal low = BigDecimal.valueOf(range.low());
            BigDecimal high = BigDecimal.valueOf(range.high());
            int d = Math.max(decimals(precision, low), decimals(precision, high));
            BigDecimal rounded = computed.setScale(d, RoundingMode.HALF_UP);
            BigDecimal tolerance =
                    precision != null && precision.approximate() ? BigDecimal.ONE.movePointLeft(d) : BigDecimal.ZERO;
            boolean holds =
                    rounded.compareTo(low.subtract(tolerance)) >= 0 && rounded.compareTo(high.add(tolerance)) <= 0;
            return new Evaluation(
                    holds ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD,
                    "; rounded to " + d + " decimals: " + rounded.toPlainString() + unit
                            + "; holds when that lies within " + plain(low) + unit + "–" + plain(high) + unit);
        }
        if (value instanceof ClaimValue.Bound bound) {
            BigDecimal b = BigDecimal.valueOf(bound.value());
            int c = computed.compareTo(b);
            boolean holds = switch (bound.operator()) {
                case GREATER_THAN -> c > 0;
                case AT_LEAST -> c >= 0;
                case LESS_THAN -> c < 0;
                case AT_MOST -> c <= 0;
            };
            return new Evaluation(
                    holds ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD,
                    "; holds when that is " + operatorWords(bound.operator()) + " " + plain(b) + unit);
        }
        return new Evaluation(Verdict.CANNOT_BE_CHECKED, "; the claimed value is n/a");
    }

    /** The claimed value as the publication wrote it, e.g. {@code 2.23x}, {@code +3%}, {@code 3x–12x}, {@code > 3x}. */
    public static String claimedText(ClaimValue value, RatioForm form) {
        String unit = form == RatioForm.PERCENT_MORE ? "%" : "x";
        String sign = form == RatioForm.PERCENT_MORE ? "+" : "";
        if (value instanceof ClaimValue.Exact e) {
            return sign + plain(BigDecimal.valueOf(e.value())) + unit;
        }
        if (value instanceof ClaimValue.Range r) {
            return sign + plain(BigDecimal.valueOf(r.low())) + unit + "–" + plain(BigDecimal.valueOf(r.high())) + unit;
        }
        if (value instanceof ClaimValue.Bound b) {
            return operatorWords(b.operator()) + " " + plain(BigDecimal.valueOf(b.value())) + unit;
        }
        return "n/a";
    }

    private static String operatorWords(ClaimValue.BoundOperator op) {
        return switch (op) {
            case GREATER_THAN -> "more than";
            case AT_LEAST -> "at least";
            case LESS_THAN -> "less than";
            case AT_MOST -> "at most";
        };
    }

    private static int decimals(Precision precision, BigDecimal claimed) {
        if (precision != null) {
            return precision.decimals();
        }
        return Math.max(0, claimed.stripTrailingZeros().scale());
    }

    private static Optional<BigDecimal> figure(PublishedClaim figure) {
        if (figure != null && figure.value() instanceof ClaimValue.Exact e) {
            return Optional.of(BigDecimal.valueOf(e.value()));
        }
        return Optional.empty();
    }

    private static String plain(BigDecimal b) {
        return b.stripTrailingZeros().toPlainString();
    }

    private static ClaimCheck cannot(PublishedClaim claim, String subject, String claimed, String why) {
        String baseline = claim.ratio() == null ? null : claim.ratio().baselineLabel();
        return new ClaimCheck(
                claim.source(),
                claim.claimId(),
                claim.quote(),
                subject,
                baseline,
                null,
                null,
                null,
                null,
                claimed,
                "cannot be checked: " + why,
                Verdict.CANNOT_BE_CHECKED);
    }
}
