package dev.podium.query.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.query.stats.Margin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * y at a target and the ratio there against values computed outside Podium with SciPy: serving/at-target-reference.csv,
 * written by at_target_reference.py beside it from the curves in at-target-cases.json.
 */
class TargetCrossingTest {

    private static final double CLOSE = 1e-9;

    @Test
    void valueIntervalAndDfAtTheTargetMatchTheReference() throws IOException {
        JsonNode cases = cases().get("cases");
        List<String[]> rows = reference("at");
        assertThat(rows).hasSize(cases.size());
        for (String[] row : rows) {
            AtTarget at = at(cases.get(row[1]));
            assertThat(at.status().name()).as(row[1]).isEqualTo(row[2]);
            assertClose(at.value(), row[3], row[1] + " value");
            assertClose(at.low(), row[4], row[1] + " low");
            assertClose(at.high(), row[5], row[1] + " high");
            assertClose(at.df(), row[6], row[1] + " df");
            assertThat(at.from()).as(row[1] + " from").isEqualTo(row[7].isEmpty() ? null : row[7]);
            assertThat(at.to()).as(row[1] + " to").isEqualTo(row[8].isEmpty() ? null : row[8]);
        }
    }

    @Test
    void theRatioAtTheTargetAndItsVerdictMatchTheReference() throws IOException {
        JsonNode cases = cases().get("cases");
        List<String[]> rows = reference("ratio");
        assertThat(rows).hasSize(cases().get("ratios").size());
        for (String[] row : rows) {
            String[] sides = row[1].split("/");
            ServingView.Ratio r =
                    TargetRatios.of(at(cases.get(sides[0])), at(cases.get(sides[1])), false, new Margin(5));
            assertThat(r.equivalence().call().name()).as(row[1]).isEqualTo(row[2]);
            assertClose(r.interval().ratio(), row[3], row[1] + " ratio");
            assertClose(r.interval().low(), row[4], row[1] + " low");
            assertClose(r.interval().high(), row[5], row[1] + " high");
            assertClose(r.interval().df(), row[6], row[1] + " df");
        }
    }

    @Test
    void aTargetMissedOrPassedByEveryPointIsNeverExtrapolated() throws IOException {
        JsonNode cases = cases().get("cases");
        AtTarget above = at(cases.get("above-every-point"));
        assertThat(above.status()).isEqualTo(AtTarget.Status.BEYOND_EVERY_POINT);
        assertThat(above.value()).isNull();
        assertThat(ServingCells.valueText(above, true)).isEqualTo("above every point");
        assertThat(ServingCells.valueText(at(cases.get("not-reached")), true)).isEqualTo("not reached");
        assertThat(TargetCrossing.at(List.of(), 100, true).status()).isEqualTo(AtTarget.Status.NOT_MEASURED);
    }

    @Test
    void aValueRestingOnASingleRunGetsNoIntervalAndNoRatio() throws IOException {
        JsonNode cases = cases().get("cases");
        AtTarget single = at(cases.get("single-run-point"));
        assertThat(single.comparable()).isFalse();
        ServingView.Ratio r = TargetRatios.of(single, at(cases.get("other-device")), false, new Margin(5));
        assertThat(r.interval()).isNull();
        assertThat(r.note()).contains("single run");
        assertThat(TargetRatios.of(at(cases.get("not-reached")), single, false, new Margin(5))
                        .note())
                .isEqualTo("no value at the target");
        assertThat(TargetRatios.of(single, null, false, new Margin(5)).note()).contains("no curve reached the target");
    }

    @Test
    void theDefaultTargetIsTheMiddleOfTheRangeEveryCurveMeasured() throws IOException {
        JsonNode cases = cases().get("cases");
        // t from 50 to 400 and from 60 to 260: shared 60 to 260.
        assertThat(TargetCrossing.middle(
                        List.of(readings(cases.get("between-8-and-64")), readings(cases.get("other-device")))))
                .isEqualTo(160.0);
        assertThat(TargetCrossing.middle(List.of(List.of()))).isNull();
    }

    private static AtTarget at(JsonNode c) {
        return TargetCrossing.at(
                readings(c), c.get("target").asDouble(), c.get("lowerIsBetter").asBoolean());
    }

    private static List<TargetCrossing.Reading> readings(JsonNode c) {
        List<TargetCrossing.Reading> out = new ArrayList<>();
        for (JsonNode p : c.get("points")) {
            int samples = p.get(7).asInt();
            out.add(new TargetCrossing.Reading(
                    p.get(0).asText(),
                    Measured.of(row(p.get(1), p.get(2), p.get(3), samples), 1),
                    Measured.of(row(p.get(4), p.get(5), p.get(6), samples), 1)));
        }
        return out;
    }

    private static ServingRow row(JsonNode mean, JsonNode low, JsonNode high, int samples) {
        return new ServingRow(
                "k",
                "m",
                "d",
                "d",
                "HIGHER_IS_BETTER",
                "u",
                samples,
                samples,
                mean.asDouble(),
                low.isNull() ? null : low.asDouble(),
                high.isNull() ? null : high.asDouble());
    }

    private static void assertClose(Double actual, String expected, String what) {
        if (expected.isEmpty()) {
            assertThat(actual).as(what).isNull();
        } else {
            double e = Double.parseDouble(expected);
            assertThat(actual).as(what).isNotNull();
            assertThat(actual).as(what).isCloseTo(e, within(CLOSE * Math.max(1, Math.abs(e))));
        }
    }

    private static JsonNode cases() throws IOException {
        try (InputStream in = TargetCrossingTest.class.getResourceAsStream("/serving/at-target-cases.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    private static List<String[]> reference(String kind) throws IOException {
        try (InputStream in = TargetCrossingTest.class.getResourceAsStream("/serving/at-target-reference.csv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Arrays.stream(text.split("\n"))
                    .skip(1)
                    .map(line -> line.split(",", -1))
                    .filter(cells -> cells[0].equals(kind))
                    .toList();
        }
    }
}
