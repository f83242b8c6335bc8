package dev.podium.ingest.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HistoryPointTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");

    private static HistoryPoint point(String runId, Instant startedAt) {
        return new HistoryPoint(UUID.fromString(runId), startedAt, 1.0);
    }

    @Test
    void pointsAreOrderedByStartThenByRunIdAsPostgresOrdersUuids() {
        // PostgreSQL compares uuids bytewise (SELECT 'ffffffff-…'::uuid > '00000000-…'::uuid is true); UUID.compareTo
        // compares signed halves and puts ffffffff-… first.
        HistoryPoint high = point("ffffffff-0000-4000-8000-000000000000", AT);
        HistoryPoint low = point("00000000-0000-4000-8000-000000000001", AT);
        HistoryPoint lowTail = point("00000000-0000-4000-f000-000000000000", AT);
        HistoryPoint earlier = point("ffffffff-ffff-4fff-bfff-ffffffffffff", AT.minusMillis(1));
        List<HistoryPoint> points = new ArrayList<>(List.of(high, lowTail, low, earlier));

        points.sort(HistoryPoint.ORDER);

        assertThat(points).containsExactly(earlier, low, lowTail, high);
    }
}
