package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A matrix is counted without being expanded, so its size can be refused before anything is allocated for it. */
class CampaignPlanCountTest {

    @Test
    void theCountIsTheProductOfTheAxesAndMatchesTheExpansion() {
        Map<String, List<String>> matrix = Map.of("a", List.of("1", "2", "3"), "b", List.of("x", "y"));
        assertThat(CampaignPlan.count(matrix))
                .isEqualTo(6)
                .isEqualTo(CampaignPlan.points(matrix).size());
        assertThat(CampaignPlan.count(null)).isEqualTo(1);
        assertThat(CampaignPlan.count(Map.of("a", List.of())))
                .isZero()
                .isEqualTo(CampaignPlan.points(Map.of("a", List.of())).size());
    }

    @Test
    void aMatrixBeyondEveryLongSaturatesInsteadOfOverflowing() {
        Map<String, List<String>> matrix = new HashMap<>();
        List<String> values = java.util.Collections.nCopies(1000, "v");
        for (int axis = 0; axis < 20; axis++) {
            matrix.put("p" + axis, values);
        }
        assertThat(CampaignPlan.count(matrix)).isEqualTo(Long.MAX_VALUE);
    }
}
