package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.data.JobRow;
import dev.podium.query.page.FleetFormats;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FleetServiceTest {

    @Test
    void aJobsPointNamesOnlyTheCampaignsMatrixParametersInNameOrder() {
        Map<String, String> parameters = Map.of("size", "tiny", "workers", "2", "batch_size", "8");

        assertThat(FleetService.point(parameters, List.of("batch_size", "workers")))
                .isEqualTo("batch_size=8 · workers=2");
        assertThat(FleetService.point(parameters, List.of())).isEqualTo("—");
    }

    @Test
    void stateCountsListEveryStateInTheOrderAJobPassesThroughThem() {
        List<JobRow> jobs = List.of(job("done"), job("done"), job("assigned"));

        assertThat(FleetService.states(jobs))
                .containsExactly(
                        Map.entry("requested", 0),
                        Map.entry("assigned", 1),
                        Map.entry("done", 2),
                        Map.entry("failed", 0),
                        Map.entry("cancelled", 0));
        assertThat(FleetFormats.counts(FleetService.states(jobs))).isEqualTo("1 assigned · 2 done");
        assertThat(FleetFormats.counts(FleetService.states(List.of()))).isEqualTo("no jobs");
    }

    @Test
    void onlyRequestedAndAssignedJobsAreActive() {
        assertThat(List.of("requested", "assigned", "done", "failed", "cancelled").stream()
                        .filter(s -> FleetService.active(job(s))))
                .containsExactly("requested", "assigned");
    }

    @Test
    void stateBadgesComeFromAFixedSetOfClasses() {
        assertThat(FleetFormats.stateClass("done")).isEqualTo("badge badge-online");
        assertThat(FleetFormats.stateClass("superseded")).isEqualTo("badge badge-warn");
        assertThat(FleetFormats.stateClass("\" onmouseover=\"x")).isEqualTo("badge");
        assertThat(FleetFormats.stateClass(null)).isEqualTo("badge");
    }

    private static JobRow job(String state) {
        return new JobRow(
                UUID.randomUUID(),
                UUID.randomUUID(),
                1,
                "gpu-a",
                state,
                1,
                null,
                null,
                null,
                Map.of(),
                null,
                null,
                null,
                null,
                null);
    }
}
