package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.podium.query.data.EnergyRow;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Energy and cost per unit with their intervals, from a cell's sums as ingest keeps them, against the values
 * {@code energy/unit_costs.py} computed outside Podium from the same runs' own values (recorded in unit_costs.csv).
 */
class UnitCostsTest {

    /** The runs of unit_costs.py: window watts, system rate (units/s), accelerators. */
    private static final double[][] RUNS = {
        {712.5, 301.2, 2}, {698.0, 296.7, 2}, {731.25, 309.9, 2}, {705.0, 288.4, 2}, {720.0, 305.0, 2}
    };

    @Test
    void energyAndCostIntervalsMatchAComputationOutsideTheProject() throws IOException {
        Map<String, double[]> expected = expected();
        EnergyRow row = new EnergyRow("k", "d", sums(RUNS), sums(new double[0][]));

        assertClose(UnitCosts.joules(row, false), expected.get("joules"));
        List<UnitCosts.Cost> costs = UnitCosts.perMillion(row, false, 3.5, 1.2, 0.13);
        assertThat(costs).extracting(UnitCosts.Cost::basis).containsExactly(PriceBasis.ON_DEMAND, PriceBasis.OWNED);
        assertClose(costs.get(0).perMillion(), expected.get("on_demand"));
        assertClose(costs.get(1).perMillion(), expected.get("owned"));
    }

    @Test
    void aBasisWithoutAPriceIsLeftOutAndOneRunHasNoInterval() {
        EnergyRow row = new EnergyRow("k", "d", sums(new double[][] {RUNS[0]}), sums(new double[0][]));
        List<UnitCosts.Cost> costs = UnitCosts.perMillion(row, false, null, 1.2, 0.13);
        assertThat(costs).extracting(UnitCosts.Cost::basis).containsExactly(PriceBasis.OWNED);
        RunInterval joules = UnitCosts.joules(row, false);
        assertThat(joules.mean()).isCloseTo(712.5 / 301.2, within(1e-12));
        assertThat(joules.low()).isNull();
        assertThat(UnitCosts.joules(new EnergyRow("k", "d", sums(new double[0][]), sums(new double[0][])), true))
                .isNull();
    }

    private static void assertClose(RunInterval actual, double[] expected) {
        assertThat(actual.runs()).isEqualTo(RUNS.length);
        assertThat(actual.mean()).isCloseTo(expected[0], within(1e-9 * Math.abs(expected[0])));
        assertThat(actual.low()).isCloseTo(expected[1], within(1e-9 * Math.abs(expected[1])));
        assertThat(actual.high()).isCloseTo(expected[2], within(1e-9 * Math.abs(expected[2])));
    }

    /** The sums ingest's EnergyCell keeps: each value as the exact decimal of its shortest text. */
    private static EnergyRow.Sums sums(double[][] runs) {
        BigDecimal x = BigDecimal.ZERO, xx = BigDecimal.ZERO, w = BigDecimal.ZERO;
        BigDecimal y = BigDecimal.ZERO, yy = BigDecimal.ZERO, xy = BigDecimal.ZERO;
        for (double[] r : runs) {
            BigDecimal j = new BigDecimal(Double.toString(r[0] / r[1]));
            BigDecimal s = new BigDecimal(Double.toString(r[2] / r[1]));
            x = x.add(j);
            xx = xx.add(j.multiply(j));
            w = w.add(new BigDecimal(Double.toString(r[0])));
            y = y.add(s);
            yy = yy.add(s.multiply(s));
            xy = xy.add(j.multiply(s));
        }
        return new EnergyRow.Sums(runs.length, x, xx, w, y, yy, xy);
    }

    private static Map<String, double[]> expected() throws IOException {
        Map<String, double[]> out = new HashMap<>();
        try (InputStream in = UnitCostsTest.class.getResourceAsStream("/energy/unit_costs.csv")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 1; i < lines.length; i++) {
                String[] f = lines[i].strip().split(",");
                out.put(f[0], new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3])
                });
            }
        }
        return out;
    }
}
