package dev.podium.query.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParetoFrontTest {

    @Test
    void aPointBeatenOnBothAxesIsOffTheFront() {
        // (per-user speed, throughput): the third gives less of both than the second.
        List<double[]> points =
                List.of(new double[] {90, 100}, new double[] {60, 400}, new double[] {50, 300}, new double[] {20, 900});
        assertThat(ParetoFront.of(points, true, true)).containsExactly(0, 1, 3);
    }

    @Test
    void aLatencyAxisIsBetterLower() {
        // (p99 latency in ms, throughput): 80 ms for 500 beats 120 ms for 450.
        List<double[]> points = List.of(new double[] {80, 500}, new double[] {120, 450}, new double[] {200, 900});
        assertThat(ParetoFront.of(points, false, true)).containsExactly(0, 2);
    }

    @Test
    void equalPointsStayOnTheFrontTogether() {
        List<double[]> points = List.of(new double[] {10, 10}, new double[] {10, 10});
        assertThat(ParetoFront.of(points, true, true)).containsExactly(0, 1);
    }
}
