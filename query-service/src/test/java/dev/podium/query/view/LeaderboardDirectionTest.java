package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.Direction;
import org.junit.jupiter.api.Test;

/**
 * A latency percentile such as {@code ttft_p99_ms} is published lower-is-better, and ingest stores the direction as the
 * enum's name: a leaderboard over it ranks the lowest value first, one over a throughput the highest.
 */
class LeaderboardDirectionTest {

    @Test
    void aLowerIsBetterMetricRanksAscendingAndAHigherIsBetterOneDescending() {
        assertThat(Labels.lowerIsBetter(Direction.LOWER_IS_BETTER.name())).isTrue();
        assertThat(LeaderboardView.defaultDir("mean", Direction.LOWER_IS_BETTER.name()))
                .isEqualTo("asc");
        assertThat(LeaderboardView.defaultDir("best", Direction.LOWER_IS_BETTER.name()))
                .isEqualTo("asc");
        assertThat(Labels.lowerIsBetter(Direction.HIGHER_IS_BETTER.name())).isFalse();
        assertThat(LeaderboardView.defaultDir("mean", Direction.HIGHER_IS_BETTER.name()))
                .isEqualTo("desc");
    }
}
