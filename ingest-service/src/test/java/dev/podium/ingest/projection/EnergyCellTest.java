package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnergyCellTest {

    private static final Touched.KeyMetricDevice CELL = new Touched.KeyMetricDevice("k", "throughput", "d");

    @Test
    void joulesPerUnitAreSystemWattsOverTheSystemsRate() {
        // 400 W at 50 samples/s; 800 W over two accelerators at 50 samples/s each: 8 J a sample both.
        assertThat(new EnergyCell.Run(400, 50.0, "SYSTEM", 1, true).joulesPerUnit())
                .isCloseTo(8.0, within(1e-12));
        assertThat(new EnergyCell.Run(800, 50.0, "PER_ACCELERATOR", 2, true).joulesPerUnit())
                .isCloseTo(8.0, within(1e-12));
        assertThat(new EnergyCell.Run(800, 50.0, "PER_ACCELERATOR", null, true).joulesPerUnit())
                .isCloseTo(16.0, within(1e-12));
    }

    @Test
    void aRunWithoutPowerOrAPositiveRateAddsNothing() {
        EnergyCell empty = EnergyCell.empty(CELL);
        for (EnergyCell.Run run : List.of(
                new EnergyCell.Run(0, 50.0, "SYSTEM", 1, true),
                new EnergyCell.Run(400, null, "SYSTEM", 1, true),
                new EnergyCell.Run(400, 0.0, "SYSTEM", 1, true),
                new EnergyCell.Run(400, -3.0, "SYSTEM", 1, false))) {
            assertThat(empty.plus(run)).isEqualTo(empty);
        }
        assertThat(empty.isEmpty()).isTrue();
    }

    @Test
    void runsThatFailedACheckAreSummedApart() {
        EnergyCell cell = EnergyCell.empty(CELL)
                .plus(new EnergyCell.Run(400, 50.0, "SYSTEM", 1, true))
                .plus(new EnergyCell.Run(300, 50.0, "SYSTEM", 1, true))
                .plus(new EnergyCell.Run(500, 20.0, "SYSTEM", 1, false));
        assertThat(cell.counted().runs()).isEqualTo(2);
        assertThat(cell.counted().joules()).isEqualByComparingTo("14");
        assertThat(cell.counted().watts()).isEqualByComparingTo("700");
        assertThat(cell.failing().runs()).isEqualTo(1);
        assertThat(cell.failing().joules()).isEqualByComparingTo("25");
        assertThat(cell.failing().watts()).isEqualByComparingTo("500");
        assertThat(cell.isEmpty()).isFalse();
    }

    @Test
    void theSumsDoNotDependOnTheOrderOfTheRuns() {
        List<EnergyCell.Run> runs = List.of(
                new EnergyCell.Run(401.3, 49.7, "SYSTEM", 1, true),
                new EnergyCell.Run(1e-3, 3.3, "SYSTEM", 1, true),
                new EnergyCell.Run(7e15, 0.7, "SYSTEM", 1, true));
        EnergyCell forward = EnergyCell.empty(CELL);
        EnergyCell backward = EnergyCell.empty(CELL);
        for (int i = 0; i < runs.size(); i++) {
            forward = forward.plus(runs.get(i));
            backward = backward.plus(runs.get(runs.size() - 1 - i));
        }
        assertThat(forward).isEqualTo(backward);
        BigDecimal exact = BigDecimal.ZERO;
        for (EnergyCell.Run r : runs) {
            exact = exact.add(new BigDecimal(Double.toString(r.joulesPerUnit())));
        }
        assertThat(forward.counted().joules()).isEqualTo(exact);
    }

    @Test
    void cellsKeepSquaresAndProductsForAnInterval() {
        // 8 J and 0.02 device-s a sample, then 6 J and 0.04 device-s (300 W at 25 samples/s per accelerator on two).
        EnergyCell cell = EnergyCell.empty(CELL)
                .plus(new EnergyCell.Run(400, 50.0, "SYSTEM", 1, true))
                .plus(new EnergyCell.Run(300, 25.0, "PER_ACCELERATOR", 2, true));
        EnergyCell.Sums s = cell.counted();
        assertThat(s.joulesSq()).isEqualByComparingTo("100");
        assertThat(s.deviceSeconds()).isEqualByComparingTo("0.06");
        assertThat(s.deviceSecondsSq()).isEqualByComparingTo("0.002");
        assertThat(s.joulesDeviceSeconds()).isEqualByComparingTo("0.4");
    }
}
