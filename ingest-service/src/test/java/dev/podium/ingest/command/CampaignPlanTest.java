package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.model.JobSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignPlanTest {

    @Test
    void theMatrixExpandsToEveryPointInKeyOrder() {
        assertThat(CampaignPlan.points(Map.of("workers", List.of("0", "2"), "batch", List.of("16", "32", "64"))))
                .containsExactly(
                        Map.of("batch", "16", "workers", "0"), Map.of("batch", "16", "workers", "2"),
                        Map.of("batch", "32", "workers", "0"), Map.of("batch", "32", "workers", "2"),
                        Map.of("batch", "64", "workers", "0"), Map.of("batch", "64", "workers", "2"));
        assertThat(CampaignPlan.points(Map.of())).containsExactly(Map.of());
        assertThat(CampaignPlan.points(null)).containsExactly(Map.of());
        assertThat(CampaignPlan.points(Map.of("workers", List.of()))).isEmpty();
    }

    @Test
    void aJobsSpecHasItsPointInItsParametersAndNoMatrix() {
        JobSpec spec = new JobSpec(
                "b",
                "reference",
                null,
                null,
                Map.of("epochs", "1", "batch", "8"),
                Map.of("batch", List.of("16", "32")),
                3,
                5,
                900,
                null,
                1,
                1,
                null);
        JobSpec job = CampaignPlan.jobSpec(spec, Map.of("batch", "32"), "gaudi2");
        assertThat(job.parameters()).isEqualTo(Map.of("epochs", "1", "batch", "32"));
        assertThat(job.matrix()).isEmpty();
        assertThat(job.environment()).isEmpty();
        assertThat(job.pool()).isEqualTo("gaudi2");
        assertThat(job.repetitions()).isEqualTo(3);
    }

    @Test
    void schedulesAreNamedPeriodsOrIsoDurations() {
        assertThat(CampaignPlan.period("nightly")).contains(Duration.ofHours(24));
        assertThat(CampaignPlan.period("PT24H")).contains(Duration.ofHours(24));
        assertThat(CampaignPlan.period("P1D")).contains(Duration.ofDays(1));
        assertThat(CampaignPlan.period("hourly")).contains(Duration.ofHours(1));
        assertThat(CampaignPlan.period(null)).isEmpty();
        assertThat(CampaignPlan.period(" ")).isEmpty();
        assertThatThrownBy(() -> CampaignPlan.period("0 2 * * *")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CampaignPlan.period("PT0S")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CampaignPlan.period("-PT1H")).isInstanceOf(IllegalArgumentException.class);
    }
}
