package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ThrottleSpan;
import dev.podium.events.model.ValidityCheck;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ThrottleCheckTest {

    private static final AcceleratorDevice H100 = new AcceleratorDevice(0, "GPU-a1", 700.0, 700.0, 1980.0, 2619.0);

    private static Sample at(double t, Integer repetition, ThrottleReason... reasons) {
        return new Sample(t, ThrottleReason.bits(java.util.Set.of(reasons)), repetition, 0);
    }

    private static Optional<ValidityCheck> judge(List<AcceleratorDevice> devices, List<Sample> samples) {
        return ThrottleCheck.judge(devices, ThrottleSpan.inWindow(samples), ThrottleSpan.of(samples), 60.0);
    }

    @Test
    void aThermalSlowdownInTheWindowFailsAndSaysWhichWhereWhenAndHowLong() {
        List<Sample> samples = List.of(
                at(1, 0),
                at(2, 0, ThrottleReason.HW_THERMAL_SLOWDOWN, ThrottleReason.SW_POWER_CAP),
                at(3, 0, ThrottleReason.HW_THERMAL_SLOWDOWN),
                at(4, 0));
        assertThat(judge(List.of(H100), samples)).hasValueSatisfying(c -> {
            assertThat(c.passed()).isFalse();
            assertThat(c.detail())
                    .isEqualTo("hardware thermal slowdown on device 0 (GPU-a1) in 2 samples from 2.0 s to 3.0 s");
        });
    }

    @Test
    void aSoftwarePowerCapUnderTheDefaultLimitPasses() {
        List<Sample> samples = List.of(at(1, 0, ThrottleReason.SW_POWER_CAP), at(2, 1, ThrottleReason.SW_POWER_CAP));
        assertThat(judge(List.of(H100), samples)).hasValueSatisfying(c -> {
            assertThat(c.passed()).isTrue();
            assertThat(c.detail())
                    .isEqualTo(
                            "no slowdown in 2 throttle-reason samples; software power cap in 2 (normal at full load);"
                                    + " power limits at their defaults");
        });
    }

    @Test
    void aPowerLimitBelowTheDefaultFailsWithTheLimitShown() {
        AcceleratorDevice capped = new AcceleratorDevice(1, "GPU-b2", 450.0, 700.0, null, null);
        assertThat(judge(List.of(H100, capped), List.of(at(1, 0, ThrottleReason.SW_POWER_CAP))))
                .hasValueSatisfying(c -> {
                    assertThat(c.passed()).isFalse();
                    assertThat(c.detail()).isEqualTo("power limit 450 W below its default 700 W on device 1 (GPU-b2)");
                });
    }

    @Test
    void aSlowdownOutsideTheMeasuredWindowDoesNotCount() {
        assertThat(judge(List.of(H100), List.of(at(0.5, null, ThrottleReason.HW_SLOWDOWN), at(1, 0))))
                .hasValueSatisfying(c -> assertThat(c.passed()).isTrue());
    }

    @Test
    void nothingToJudgeLeavesTheCheckOut() {
        assertThat(judge(null, List.of())).isEmpty();
        assertThat(judge(List.of(new AcceleratorDevice(0, null, null, null, null, null)), List.of()))
                .isEmpty();
    }

    @Test
    void readingsOutsideTheirPhysicalRangeAreImplausible() {
        assertThat(DeviceReadings.plausible(SeriesKind.THROTTLE_REASONS, 0x44)).isTrue();
        assertThat(DeviceReadings.plausible(SeriesKind.THROTTLE_REASONS, 0x01)).isFalse();
        assertThat(DeviceReadings.plausible(SeriesKind.THROTTLE_REASONS, 4.5)).isFalse();
        assertThat(DeviceReadings.plausible(SeriesKind.TEMPERATURE, 1e6)).isFalse();
        assertThat(DeviceReadings.plausible(SeriesKind.SM_CLOCK, 1980)).isTrue();
        assertThat(DeviceReadings.plausible(SeriesKind.POWER_LIMIT, 1e9)).isFalse();
    }

    @Test
    void aDeviceConfiguredBeyondAnyDeviceFailsWithTheFigureAndItsRange() {
        AcceleratorDevice lying = new AcceleratorDevice(1, "GPU-b2", -5.0, 700.0, 90_000.0, null);
        assertThat(judge(List.of(H100, lying), List.of(at(1, 0)))).hasValueSatisfying(c -> {
            assertThat(c.passed()).isFalse();
            assertThat(c.detail())
                    .isEqualTo("device 1 (GPU-b2) reported power limit -5 W (not within 0 to 5000 W); device 1 (GPU-b2)"
                            + " reported highest SM clock 90000 MHz (not within 0 to 20000 MHz)");
        });
    }

    @Test
    void reasonsOnADeviceTheRunDidNotNameOrAfterTheRunEndedFail() {
        List<Sample> samples = List.of(
                at(1, 0),
                new Sample(2, ThrottleReason.SW_POWER_CAP.bit(), 0, 7),
                at(500, 1, ThrottleReason.SW_POWER_CAP));
        assertThat(judge(List.of(H100), samples)).hasValueSatisfying(c -> {
            assertThat(c.passed()).isFalse();
            assertThat(c.detail())
                    .isEqualTo("throttle reasons reported for device 7, which the run did not name; software power cap"
                            + " on device 0 (GPU-a1) reported in the measured window at 500.0 s, after the run ended"
                            + " at 60.0 s");
        });
    }

    @Test
    void aReadingOutsideItsRangeSaysWhy() {
        assertThat(DeviceReadings.why(SeriesKind.THROTTLE_REASONS, 0x1044))
                .isEqualTo("is not a possible THROTTLE_REASONS reading (bits 0x1000 are no throttle reason of the"
                        + " contract)");
        assertThat(DeviceReadings.why(SeriesKind.TEMPERATURE, 10_000))
                .isEqualTo("is not a possible TEMPERATURE reading (above 200 °C)");
    }
}
