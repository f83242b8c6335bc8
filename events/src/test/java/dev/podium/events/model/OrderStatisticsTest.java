package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Order-statistic intervals against scipy (percentiles/order_statistics.csv, written by order_statistics.py beside it). */
class OrderStatisticsTest {

    private record Case(int n, double p, Integer lower, Integer upper, double coverage, boolean tooFew) {}

    @Test
    void ranksCoverageAndTooFewAreScipys() throws IOException {
        List<Case> cases = cases();
        assertThat(cases).hasSize(66);
        for (Case c : cases) {
            OrderStatistics.Ranks r = OrderStatistics.ranks(c.n(), c.p(), OrderStatistics.CONFIDENCE);
            assertThat(r.lower()).as("lower rank of %s", c).isEqualTo(c.lower());
            assertThat(r.upper()).as("upper rank of %s", c).isEqualTo(c.upper());
            assertThat(r.coverage()).as("coverage of %s", c).isEqualTo(c.coverage(), offset(1e-9));
            assertThat(OrderStatistics.tooFew(c.n(), c.p()))
                    .as("too few in %s", c)
                    .isEqualTo(c.tooFew());
        }
    }

    @Test
    void aP99OfFewerThan100ValuesIsTooFewAndHasNoUpperBound() {
        assertThat(OrderStatistics.tooFew(99, 0.99)).isTrue();
        assertThat(OrderStatistics.tooFew(100, 0.99)).isFalse();
        assertThat(OrderStatistics.ranks(99, 0.99, 0.95).upper()).isNull();
        // a two-sided 95% interval of a p99 needs 368 values: below that the 99th percentile may lie past the largest
        assertThat(OrderStatistics.ranks(367, 0.99, 0.95).upper()).isNull();
        assertThat(OrderStatistics.ranks(368, 0.99, 0.95).upper()).isEqualTo(368);
    }

    @Test
    void boundsAreTheValuesAtTheRanks() {
        double[] sorted =
                IntStream.rangeClosed(1, 1000).mapToDouble(i -> i * 1.5).toArray();
        OrderStatistics.Ranks r = OrderStatistics.ranks(1000, 0.99, 0.95);
        PercentileBounds b = OrderStatistics.bounds(sorted, 0.99);
        assertThat(b.low()).isEqualTo(r.lower() * 1.5);
        assertThat(b.high()).isEqualTo(r.upper() * 1.5);
        Percentiles p = Percentiles.of(
                IntStream.rangeClosed(1, 1000).mapToObj(i -> i * 1.5).toList());
        assertThat(p.p99Bounds()).isEqualTo(b);
        assertThat(p.p99Bounds().low()).isLessThanOrEqualTo(p.p99());
        assertThat(p.p99Bounds().high()).isGreaterThanOrEqualTo(p.p99());
        assertThat(Percentiles.of(List.of(3.0, 1.0)).p99Bounds()).isEqualTo(new PercentileBounds(3.0, null));
    }

    @Test
    void outOfRangeArgumentsAreRefused() {
        assertThatThrownBy(() -> OrderStatistics.ranks(0, 0.5, 0.95)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatistics.ranks(10, 1.0, 0.95)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatistics.ranks(10, Double.NaN, 0.95))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatistics.ranks(10, 0.5, 1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Case> cases() throws IOException {
        try (InputStream in = OrderStatisticsTest.class.getResourceAsStream("/percentiles/order_statistics.csv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .skip(1)
                    .map(line -> line.split(",", -1))
                    .map(c -> new Case(
                            Integer.parseInt(c[0]),
                            Double.parseDouble(c[1]),
                            c[2].isEmpty() ? null : Integer.valueOf(c[2]),
                            c[3].isEmpty() ? null : Integer.valueOf(c[3]),
                            Double.parseDouble(c[4]),
                            Boolean.parseBoolean(c[5])))
                    .toList();
        }
    }
}
