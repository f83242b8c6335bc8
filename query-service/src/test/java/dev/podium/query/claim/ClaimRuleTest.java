package dev.podium.query.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.Direction;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.Precision;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.published.RatioBasis.RatioForm;
import dev.podium.query.support.PublishedSeeds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClaimRuleTest {

    private static final Map<String, PublishedClaim> FIGURES = new HashMap<>();

    static {
        PublishedSeeds.bridgetower().forEach(c -> FIGURES.put(c.claimId(), c));
    }

    @ParameterizedTest(name = "{0}: computed {1}, {2}")
    @CsvSource({
        "gaudi2-vs-h100-workers0,        1.79, HOLDS",
        "gaudi2-vs-a100-workers0,        2.64, DOES_NOT_HOLD",
        "gaudi2-vs-h100-workers2,        1.28, HOLDS",
        "gaudi2-vs-a100-workers2,        2.23, HOLDS",
        "headline-gaudi2-best-vs-a100-best,  2.45, HOLDS",
        "headline-gaudi2-best-vs-h100-best,  1.41, HOLDS",
        "h100-workers1-vs-workers0,            1.72, HOLDS",
        "h100-workers2-vs-workers1,            1.04, HOLDS",
        "gaudi2-mediapipe-vs-best-default, 1.10, HOLDS"
    })
    void everySeedClaimOfSectionOneGetsItsVerdict(String claimId, String ratio, Verdict verdict) {
        ClaimCheck check = ClaimRule.check(FIGURES.get(claimId), FIGURES);

        assertThat(check.ratio2()).isEqualTo(ratio);
        assertThat(check.verdict()).isEqualTo(verdict);
    }

    @Test
    void gaudiVersusA100AtZeroWorkersShowsTheRuleInWords() {
        ClaimCheck check = ClaimRule.check(FIGURES.get("gaudi2-vs-a100-workers0"), FIGURES);

        assertThat(check.claimed()).isEqualTo("2.23x");
        assertThat(check.rule())
                .startsWith("601.5 / 227.5 = 2.64396")
                .contains("rounded to 2 decimals: 2.64x")
                .contains("equals 2.23x");
    }

    @Test
    void aboutThreePercentIsCheckedWithinOneUnitOfTheLastDigit() {
        ClaimCheck check = ClaimRule.check(FIGURES.get("h100-workers2-vs-workers1"), FIGURES);

        assertThat(check.computed().doubleValue()).isBetween(3.79, 3.80);
        assertThat(check.claimed()).isEqualTo("+3%");
        assertThat(check.rule()).contains("rounded to 0 decimals: 4%").contains("within ± 1 of 3%");
    }

    @Test
    void withoutAboutTheSameDistanceDoesNotHold() {
        PublishedClaim strict =
                withValue(FIGURES.get("h100-workers2-vs-workers1"), new ClaimValue.Exact(3), new Precision(0, false));

        assertThat(ClaimRule.check(strict, FIGURES).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    }

    @Test
    void oneDecimalIsTheStatedPrecisionOfOnePointThree() {
        PublishedClaim twoDecimals =
                withValue(FIGURES.get("gaudi2-vs-h100-workers2"), new ClaimValue.Exact(1.30), new Precision(2, false));

        assertThat(ClaimRule.check(FIGURES.get("gaudi2-vs-h100-workers2"), FIGURES)
                        .verdict())
                .isEqualTo(Verdict.HOLDS);
        assertThat(ClaimRule.check(twoDecimals, FIGURES).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    }

    @Test
    void aRangeHoldsWhenTheComputedValueLiesWithinIt() {
        PublishedClaim inside =
                withValue(FIGURES.get("gaudi2-vs-a100-workers0"), new ClaimValue.Range(2, 3), new Precision(0, false));
        PublishedClaim outside =
                withValue(FIGURES.get("gaudi2-vs-a100-workers0"), new ClaimValue.Range(4, 12), new Precision(0, false));
        PublishedClaim roundsIn =
                withValue(FIGURES.get("gaudi2-vs-a100-workers0"), new ClaimValue.Range(3, 12), new Precision(0, false));

        assertThat(ClaimRule.check(inside, FIGURES).verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(ClaimRule.check(outside, FIGURES).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
        assertThat(ClaimRule.check(roundsIn, FIGURES).verdict())
                .as("2.64 stated to 0 decimals is 3")
                .isEqualTo(Verdict.HOLDS);
        assertThat(ClaimRule.check(outside, FIGURES).claimed()).isEqualTo("4x–12x");
    }

    @Test
    void aBoundHoldsWhenTheComputedValueLiesBeyondIt() {
        PublishedClaim more = withValue(
                FIGURES.get("gaudi2-vs-a100-workers0"),
                new ClaimValue.Bound(ClaimValue.BoundOperator.GREATER_THAN, 2.5),
                null);
        PublishedClaim tooMuch = withValue(
                FIGURES.get("gaudi2-vs-a100-workers0"),
                new ClaimValue.Bound(ClaimValue.BoundOperator.GREATER_THAN, 3),
                null);

        assertThat(ClaimRule.check(more, FIGURES).verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(ClaimRule.check(tooMuch, FIGURES).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
        assertThat(ClaimRule.check(tooMuch, FIGURES).claimed()).isEqualTo("more than 3x");
    }

    @Test
    void aClaimWithoutFiguresCannotBeChecked() {
        PublishedClaim c = FIGURES.get("gaudi2-vs-a100-workers0");
        PublishedClaim noFigures = new PublishedClaim(
                "more-than-3x",
                c.source(),
                null,
                null,
                "more than 3x the images per second",
                c.deviceId(),
                c.deviceLabel(),
                256,
                null,
                c.metric(),
                "x",
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Bound(ClaimValue.BoundOperator.GREATER_THAN, 3),
                null,
                new RatioBasis("A100-80GB", null, null, RatioForm.TIMES));

        ClaimCheck check = ClaimRule.check(noFigures, FIGURES);

        assertThat(check.verdict()).isEqualTo(Verdict.CANNOT_BE_CHECKED);
        assertThat(check.ratio2()).isNull();
        assertThat(check.rule()).contains("names no figures");
    }

    @Test
    void aClaimAgainstAnNotAvailableFigureCannotBeChecked() {
        PublishedClaim c = FIGURES.get("gaudi2-vs-a100-workers0");
        PublishedClaim againstNa = new PublishedClaim(
                "vs-na",
                c.source(),
                null,
                null,
                "q",
                c.deviceId(),
                c.deviceLabel(),
                8,
                null,
                c.metric(),
                "x",
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Exact(2),
                new Precision(0, false),
                new RatioBasis("A100", "gaudi2-workers2-mediapipe", "a100-workers2-mediapipe", RatioForm.TIMES));

        assertThat(ClaimRule.check(againstNa, FIGURES).verdict()).isEqualTo(Verdict.CANNOT_BE_CHECKED);
    }

    @Test
    void forALowerIsBetterMetricFasterMeansBaselineOverSubject() {
        PublishedClaim gaudi = figureOf("gaudi-time", 3.2, Direction.LOWER_IS_BETTER);
        PublishedClaim a100 = figureOf("a100-time", 3.6, Direction.LOWER_IS_BETTER);
        PublishedClaim claim = new PublishedClaim(
                "faster",
                "s",
                null,
                null,
                "q",
                null,
                null,
                null,
                null,
                "time_per_image",
                "x",
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Exact(1.1),
                new Precision(1, false),
                new RatioBasis("A100", "gaudi-time", "a100-time", RatioForm.TIMES));

        ClaimCheck check = ClaimRule.check(claim, Map.of("gaudi-time", gaudi, "a100-time", a100));

        assertThat(check.ratio2()).isEqualTo("1.13");
        assertThat(check.verdict()).isEqualTo(Verdict.HOLDS);
    }

    private static PublishedClaim figureOf(String id, double v, Direction d) {
        return new PublishedClaim(
                id,
                "s",
                null,
                null,
                "q",
                null,
                null,
                null,
                null,
                "time_per_image",
                "s",
                d,
                new ClaimValue.Exact(v),
                null,
                null);
    }

    private static PublishedClaim withValue(PublishedClaim c, ClaimValue v, Precision p) {
        return new PublishedClaim(
                c.claimId(),
                c.source(),
                c.sourceTitle(),
                c.sourceUrl(),
                c.quote(),
                c.deviceId(),
                c.deviceLabel(),
                c.deviceCount(),
                c.key(),
                c.metric(),
                c.unit(),
                c.direction(),
                v,
                p,
                c.ratio());
    }

    @Test
    void seedsHoldNineRatioClaims() {
        assertThat(PublishedSeeds.bridgetower().stream()
                        .filter(PublishedClaim::isRatio)
                        .map(PublishedClaim::claimId)
                        .toList())
                .hasSize(9);
        assertThat(List.of(ClaimRule.claimedText(new ClaimValue.NotAvailable(null), RatioForm.TIMES)))
                .containsExactly("n/a");
    }
}
