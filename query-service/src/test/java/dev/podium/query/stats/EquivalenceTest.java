package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** TOST on log ratios against statsmodels' ttost_ind (equivalence/ttost.csv, written by ttost.py beside it). */
class EquivalenceTest {

    private static final Equivalence.Call[] EXPECTED = {
        Equivalence.Call.FASTER,
        Equivalence.Call.FASTER,
        Equivalence.Call.SAME,
        Equivalence.Call.INCONCLUSIVE,
        Equivalence.Call.SAME,
        Equivalence.Call.SLOWER_WITHIN,
        Equivalence.Call.SLOWER,
        Equivalence.Call.INCONCLUSIVE,
        Equivalence.Call.INCONCLUSIVE
    };

    @Test
    void pValueAndNinetyPercentIntervalMatchStatsmodelsTtostInd() throws IOException {
        List<Case> cases = cases();
        assertThat(cases).hasSize(EXPECTED.length);
        for (Case c : cases) {
            Equivalence e = Equivalence.of(c.difference(), new Margin(c.margin()));
            assertThat(e.pValue()).as("p-value of %s", c).isCloseTo(c.p(), within(1e-9 + 1e-7 * c.p()));
            assertThat(e.low90()).as("low90 of %s", c).isCloseTo(c.low90(), within(1e-9));
            assertThat(e.high90()).as("high90 of %s", c).isCloseTo(c.high90(), within(1e-9));
        }
    }

    @Test
    void equivalenceIsShownExactlyWhenTheTostPValueIsBelowFivePercent() throws IOException {
        for (Case c : cases()) {
            Equivalence e = Equivalence.of(c.difference(), new Margin(c.margin()));
            boolean equivalent = e.call() == Equivalence.Call.SAME
                    || e.call() == Equivalence.Call.FASTER_WITHIN
                    || e.call() == Equivalence.Call.SLOWER_WITHIN;
            assertThat(equivalent).as("%s", c).isEqualTo(c.p() < 0.05);
        }
    }

    @Test
    void eachRatioGetsTheVerdictItsIntervalsGive() throws IOException {
        List<Case> cases = cases();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            assertThat(Equivalence.of(c.difference(), new Margin(c.margin())).call())
                    .as("%s", c)
                    .isEqualTo(EXPECTED[i]);
        }
    }

    @Test
    void runsToTellTheMarginApartAreAtLeastStatsmodelsExactPooledAnswerAndAtMostTwoMore() throws IOException {
        // statsmodels solves the pooled t test exactly (noncentral t, 2n - 2 df); Welch's test has fewer df, and the
        // formula takes the fewest it can have, so it may ask for a run or two more, never fewer.
        for (Case c : cases()) {
            RunsNeeded runs = RunsNeeded.of(c.difference(), new Margin(c.margin()).logBound());
            assertThat(runs.toTellApart()).as("%s", c).isBetween(c.runs(), c.runs() + 2);
            assertThat(runs.toShowSame()).as("%s", c).isGreaterThanOrEqualTo(runs.toTellApart() - 1);
        }
    }

    @Test
    void verdictsSayTheirMargin() {
        LogDifference same = new LogDifference(0.001, 0.001, 10, 1e-5, 1e-5, 10, 10);
        Equivalence e = Equivalence.of(same, new Margin(5));
        assertThat(e.text()).isEqualTo("same within \u00b15%");
        assertThat(e.marginText()).isEqualTo("\u00b15%");
        assertThat(Equivalence.of(new LogDifference(0.02, 0.001, 10, 1e-5, 1e-5, 10, 10), new Margin(2.5))
                        .text())
                .isEqualTo("faster by less than 2.5%");
        assertThat(Equivalence.of(new LogDifference(-0.3, 0.01, 10, 1e-5, 1e-5, 10, 10), new Margin(5))
                        .text())
                .isEqualTo("slower");
        assertThat(Equivalence.of(new LogDifference(0, 0.3, 2, 0.2, 0.2, 3, 3), new Margin(5))
                        .text())
                .isEqualTo("inconclusive at \u00b15%");
    }

    @Test
    void identicalValuesOnBothSidesAreTheSameAndNeedTheFewestRuns() {
        LogDifference w = RatioEstimator.difference(
                        LogSample.of(new double[] {5, 5, 5}), LogSample.of(new double[] {5, 5, 5}), false)
                .orElseThrow();
        Equivalence e = Equivalence.of(w, new Margin(5));
        assertThat(e.call()).isEqualTo(Equivalence.Call.SAME);
        assertThat(e.runs()).isEqualTo(new RunsNeeded(2, 2));
    }

    @Test
    void runsNeededStopAtTheMostAnyCampaignRuns() {
        LogDifference noisy = new LogDifference(0, 1, 4, 2, 2, 3, 3);
        assertThat(RunsNeeded.of(noisy, new Margin(Margin.LEAST).logBound()))
                .isEqualTo(new RunsNeeded(RunsNeeded.MOST, RunsNeeded.MOST));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0", "0.01", "50.5", "1e308", "NaN", "Infinity", "five", "", " ", "5%"})
    void hostileMarginsAreRefused(String text) {
        assertThat(Margin.parse(text)).isEmpty();
    }

    @Test
    void marginsWithinTheBoundsAreTaken() {
        assertThat(Margin.parse("5")).contains(new Margin(5));
        assertThat(Margin.parse(" 2.5 ")).contains(new Margin(2.5));
        assertThat(Margin.parse("50")).contains(new Margin(50));
        assertThat(Margin.parse(null)).isEmpty();
        assertThatThrownBy(() -> new Margin(Double.NaN)).hasMessageContaining("margin must be a number of percent");
    }

    private record Case(
            double[] values, double[] baseline, double margin, double p, double low90, double high90, int runs) {
        LogDifference difference() {
            return RatioEstimator.difference(LogSample.of(values), LogSample.of(baseline), false)
                    .orElseThrow();
        }

        @Override
        public String toString() {
            return Arrays.toString(values) + " vs " + Arrays.toString(baseline) + " at " + margin + "%";
        }
    }

    private static List<Case> cases() throws IOException {
        try (InputStream in = EquivalenceTest.class.getResourceAsStream("/equivalence/ttost.csv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .skip(1)
                    .map(line -> line.split(","))
                    .map(c -> new Case(
                            numbers(c[0]),
                            numbers(c[1]),
                            Double.parseDouble(c[2]),
                            Double.parseDouble(c[3]),
                            Double.parseDouble(c[4]),
                            Double.parseDouble(c[5]),
                            Integer.parseInt(c[6])))
                    .toList();
        }
    }

    private static double[] numbers(String cell) {
        return Arrays.stream(cell.split(";")).mapToDouble(Double::parseDouble).toArray();
    }
}
