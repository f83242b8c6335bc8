package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValueChecksTest {

    @Test
    void aRepetitionShorterThanTwoSecondsFailsMinDuration() {
        assertThat(ValueChecks.duration(List.of(12.0, 11.5, 1.2))).satisfies(c -> {
            assertThat(c.name()).isEqualTo("min_duration");
            assertThat(c.passed()).isFalse();
            assertThat(c.detail()).isEqualTo("shortest repetition 1.20 s (2 s or more wanted)");
        });
        assertThat(ValueChecks.duration(List.of(12.0, 11.5)).passed()).isTrue();
        assertThat(ValueChecks.duration(List.of()).passed()).isFalse();
    }

    @Test
    void fewerRepetitionsThanThreePassOnlyWhenFewerWereAskedFor() {
        assertThat(ValueChecks.repetitions(2, 2).passed()).isTrue();
        assertThat(ValueChecks.repetitions(2, 5).passed()).isFalse();
        assertThat(ValueChecks.repetitions(0, 0).passed()).isFalse();
        assertThat(ValueChecks.repetitions(3, 5).detail())
                .isEqualTo("3 of 5 repetitions (3 or more wanted for a confidence interval)");
    }
}
