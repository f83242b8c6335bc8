package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reference values for df 1..1000 in student-t/q975.csv, written by q975.py beside it: the exact quantile (mpmath, 40
 * digits) and scipy.stats.t.ppf(0.975, df).
 */
class StudentTTest {

    @Test
    void matchesTheExactQuantileForEveryWholeDegreeOfFreedomFrom1To1000() throws IOException {
        List<String> rows = reference();
        assertThat(rows).hasSize(1000);
        for (String row : rows) {
            String[] cells = row.split(",");
            int df = Integer.parseInt(cells[0]);
            double exact = Double.parseDouble(cells[1]);
            double scipy = Double.parseDouble(cells[2]);
            double q = StudentT.quantile975(df);
            assertThat(q).as("df %d against mpmath", df).isCloseTo(exact, within(1e-12 * exact));
            // scipy 1.10's t.ppf (cephes) is itself off by up to 4.1e-9 relative (df 39); see q975.py.
            assertThat(q).as("df %d against scipy", df).isCloseTo(scipy, within(5e-9 * scipy));
        }
    }

    @Test
    void takesTheSameStepsJustAboveEveryWholeDegreeOfFreedom() throws IOException {
        // Whole df below 1000 come from a table; df a rounding above them take Newton's steps, which must agree.
        for (String row : reference()) {
            String[] cells = row.split(",");
            double df = Math.nextUp(Double.parseDouble(cells[0]));
            double exact = Double.parseDouble(cells[1]);
            assertThat(StudentT.quantile975(df)).as("df %s", df).isCloseTo(exact, within(1e-12 * exact));
        }
    }

    @Test
    void upperQuantilesMatchScipyAtWholeAndFractionalDegreesOfFreedom() throws IOException {
        List<String> rows = lines("/student-t/upper.csv");
        assertThat(rows).hasSize(57);
        for (String row : rows) {
            String[] cells = row.split(",");
            double p = Double.parseDouble(cells[0]);
            double df = Double.parseDouble(cells[1]);
            double scipy = Double.parseDouble(cells[2]);
            assertThat(StudentT.quantile(p, df)).as("p %s df %s", p, df).isCloseTo(scipy, within(5e-9 * scipy));
        }
    }

    @Test
    void upperQuantilesRejectProbabilitiesOutsideTheUpperHalf() {
        assertThatThrownBy(() -> StudentT.quantile(0.5, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StudentT.quantile(1, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StudentT.quantile(Double.NaN, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StudentT.quantile(0.9, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTableItReplacesWasTooNarrowAtDf31() {
        assertThat(StudentT.quantile975(31)).isCloseTo(2.0395134463964077, within(1e-12));
    }

    @Test
    void fractionalDegreesOfFreedomLieBetweenTheirWholeNeighbours() {
        // scipy.stats.t.ppf(0.975, 17.35) and (3.7): Welch's df are rarely whole.
        assertThat(StudentT.quantile975(17.35)).isCloseTo(2.1065780861741037, within(1e-11));
        assertThat(StudentT.quantile975(3.7)).isCloseTo(2.8675207071911895, within(1e-11));
        assertThat(StudentT.quantile975(17.35)).isBetween(StudentT.quantile975(18), StudentT.quantile975(17));
    }

    @Test
    void infiniteDegreesOfFreedomGiveTheNormalQuantile() {
        assertThat(StudentT.quantile975(Double.POSITIVE_INFINITY)).isCloseTo(1.959963984540054, within(1e-12));
        // scipy.stats.t.ppf(0.975, df) on both sides of the switch to the expansion, and far beyond it.
        assertThat(StudentT.quantile975(99_999)).isCloseTo(1.9599877077718446, within(2e-11));
        assertThat(StudentT.quantile975(100_000)).isCloseTo(1.9599877075346093, within(2e-11));
        assertThat(StudentT.quantile975(1e6)).isCloseTo(1.9599663568141066, within(1e-12));
        assertThat(StudentT.quantile975(1e9)).isCloseTo(1.959963986912325, within(1e-12));
    }

    @Test
    void rejectsDegreesOfFreedomBelowOneAndNaN() {
        assertThatThrownBy(() -> StudentT.quantile975(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StudentT.quantile975(0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StudentT.quantile975(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> reference() throws IOException {
        return lines("/student-t/q975.csv");
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = StudentTTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> !line.startsWith("#") && !line.startsWith("df,") && !line.startsWith("p,"))
                    .toList();
        }
    }
}
