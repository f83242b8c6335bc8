package dev.podium.agent.detect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.detect.DeviceStates.DeviceState;
import dev.podium.agent.support.Resources;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Device state parsers against recorded outputs (see src/test/resources/detect/SOURCES.md) and hostile ones. */
class DeviceStatesTest {

    private static Set<ThrottleReason> reasons(DeviceState d) {
        return ThrottleReason.of(d.readings().get(SeriesKind.THROTTLE_REASONS).longValue());
    }

    @Test
    void recordedBlackwellThrottleQueryReportsTheSoftwarePowerCapOnBothDevices() {
        List<DeviceState> states = DeviceStates.nvidia(Resources.text("detect/nvidia-smi-rtxpro6000-x2-throttle.csv"));
        assertThat(states).extracting(s -> s.device().index()).containsExactly(0, 1);
        assertThat(states).allSatisfy(s -> assertThat(reasons(s)).containsExactly(ThrottleReason.SW_POWER_CAP));
    }

    @Test
    void recordedBlackwellPowerQueryGivesLimitTemperatureAndEccWithUnitsInValues() {
        List<DeviceState> states = DeviceStates.nvidia(Resources.text("detect/nvidia-smi-rtxpro6000-x2-power.csv"));
        assertThat(states).hasSize(2);
        DeviceState first = states.get(0);
        assertThat(first.device().powerLimitWatts()).isEqualTo(600.0);
        assertThat(first.device().defaultPowerLimitWatts()).isNull();
        assertThat(first.readings())
                .containsEntry(SeriesKind.TEMPERATURE, 25.0)
                .containsEntry(SeriesKind.POWER_LIMIT, 600.0)
                .containsEntry(SeriesKind.ECC_ERRORS, 0.0)
                .doesNotContainKey(SeriesKind.THROTTLE_REASONS);
    }

    @Test
    void theOldThrottleFieldNamesOfDriversBefore535AreReadAsTheNewOnes() {
        String csv = """
                index, uuid, clocks_throttle_reasons.active, clocks_throttle_reasons.hw_slowdown
                0, GPU-0d5a7c1e, 0x0000000000000000, Active
                """;
        DeviceState d = DeviceStates.nvidia(csv).get(0);
        assertThat(d.device().identity()).isEqualTo("GPU-0d5a7c1e");
        assertThat(reasons(d)).containsExactly(ThrottleReason.HW_SLOWDOWN);
    }

    @Test
    void aThrottleFieldThatContradictsTheActiveMaskCountsAsReportedEitherWay() {
        String csv = """
                index, clocks_event_reasons.active, clocks_event_reasons.hw_thermal_slowdown, clocks_event_reasons.hw_power_brake_slowdown
                0, 0x0000000000000000, Active, Not Active
                1, 0x0000000000000080, Not Active, Not Active
                """;
        List<DeviceState> states = DeviceStates.nvidia(csv);
        assertThat(reasons(states.get(0))).containsExactly(ThrottleReason.HW_THERMAL_SLOWDOWN);
        assertThat(reasons(states.get(1))).containsExactly(ThrottleReason.HW_POWER_BRAKE_SLOWDOWN);
    }

    @Test
    void idleAndApplicationClockBitsAndUnknownBitsAreLeftOutOfTheReasons() {
        String csv = """
                index, clocks_event_reasons.active
                0, 0xFFFFFFFFFFFFFF03
                """;
        double bits = DeviceStates.nvidia(csv).get(0).readings().get(SeriesKind.THROTTLE_REASONS);
        assertThat((long) bits & ~ThrottleReason.ALL).isZero();
        assertThat(ThrottleReason.of((long) bits)).isEmpty();
    }

    @Test
    void readingsOutOfRangeOrUnreadableAreAbsentNotGuessed() {
        String csv = """
                index, temperature.gpu, clocks.current.sm [MHz], power.limit [W], power.default_limit [W], clocks_event_reasons.sw_power_cap, ecc.errors.uncorrected.volatile.total
                0, 9999, -5, 1e308, [N/A], Yes, 2.5
                x, 40, 1500, 300, 300, Active, 0
                """;
        List<DeviceState> states = DeviceStates.nvidia(csv);
        assertThat(states).singleElement().satisfies(d -> {
            assertThat(d.readings()).isEmpty();
            assertThat(d.device().powerLimitWatts()).isNull();
            assertThat(d.device().defaultPowerLimitWatts()).isNull();
        });
    }

    @Test
    void aLoweredPowerLimitIsTheDevicesConfiguration() {
        String csv = """
                index, pci.bus_id, power.limit [W], power.default_limit [W], clocks.max.sm [MHz], clocks.max.memory [MHz]
                0, 00000000:4F:00.0, 300.00, 700.00, 1980, 3201
                """;
        DeviceState d = DeviceStates.nvidia(csv).get(0);
        assertThat(d.device().identity()).isEqualTo("00000000:4F:00.0");
        assertThat(d.device().powerCapped()).isTrue();
        assertThat(d.device().maxSmClockMhz()).isEqualTo(1980.0);
        assertThat(d.device().maxMemoryClockMhz()).isEqualTo(3201.0);
    }

    @Test
    void recordedAmdSmiPowerMetricsReadUnthrottledAsNoReason() {
        List<DeviceState> states = DeviceStates.amd(Resources.text("detect/amd-smi-metric-power.json"));
        assertThat(states).singleElement().satisfies(d -> {
            assertThat(d.device().index()).isZero();
            assertThat(d.readings()).containsEntry(SeriesKind.THROTTLE_REASONS, 0.0);
        });
    }

    @Test
    void anAmdThrottleStatusNoPublicOutputShowsIsLeftUnread() {
        String json = """
                [{"gpu": 0, "power": {"throttle_status": "THROTTLED"}}, {"gpu": -1}, {"gpu": "1"}]""";
        assertThat(DeviceStates.amd(json))
                .singleElement()
                .satisfies(d -> assertThat(d.readings()).isEmpty());
        assertThat(DeviceStates.amd("not json")).isEmpty();
    }

    @Test
    void recordedGaudiQueryGivesEachDevicesIdentityAndTemperatureAndNothingItDoesNotShow() {
        List<DeviceState> states = DeviceStates.gaudi(Resources.text("detect/hl-smi-hl205-x8-query.csv"));
        assertThat(states).extracting(s -> s.device().index()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        DeviceState first = states.get(0);
        assertThat(first.device().identity()).isEqualTo("00P1-HL2000A1-14-P64W99-13-05-03");
        assertThat(first.device())
                .extracting(d -> d.powerLimitWatts(), d -> d.defaultPowerLimitWatts(), d -> d.maxSmClockMhz())
                .containsOnlyNulls();
        assertThat(first.readings())
                .containsOnlyKeys(SeriesKind.TEMPERATURE)
                .containsEntry(SeriesKind.TEMPERATURE, 36.0);
        assertThat(states.get(7).readings()).containsEntry(SeriesKind.TEMPERATURE, 38.0);
    }

    @Test
    void aGaudiRowOutOfRangeOrWithoutAnIndexLosesOnlyWhatIsWrong() {
        String csv = """
                index, uuid, temperature.aip [C]
                0, 00P1-HL2000A1-14-P64W99-13-05-03, 10000
                x, 00P1-HL2000A1-14-P64W99-02-08-05, 40
                2, [N/A], 41
                """;
        List<DeviceState> states = DeviceStates.gaudi(csv);
        assertThat(states).extracting(s -> s.device().index()).containsExactly(0, 2);
        assertThat(states.get(0).readings()).isEmpty();
        assertThat(states.get(1).device().identity()).isNull();
        assertThat(states.get(1).readings()).containsEntry(SeriesKind.TEMPERATURE, 41.0);
    }
}
