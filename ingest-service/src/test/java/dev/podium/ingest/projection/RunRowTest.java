package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.projection.RunProjection.RunEnd;
import dev.podium.ingest.projection.RunProjection.RunRow;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RunRowTest {

    private static final UUID RUN = UUID.fromString("0b1c9f5e-6f7a-4a51-9d2c-3b9f0f7a1e22");
    private static final Instant STARTED = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant FINISHED = Instant.parse("2026-03-01T00:10:00Z");

    private static RunRow started(long position) {
        return new RunRow(
                RUN,
                "run/" + RUN,
                "agent-a",
                null,
                null,
                "running",
                "bench",
                "key",
                "intel-gaudi2",
                8,
                "host",
                "{}",
                "{}",
                "[]",
                "{}",
                STARTED,
                position,
                null,
                null,
                null,
                null,
                null,
                position);
    }

    @Test
    void aRunEndedInTheSameBatchTakesTheEndsStatusAndColumnsAndKeepsItsStart() {
        RunEnd end = new RunEnd(RUN, "run/" + RUN, "agent-b", "completed", FINISHED, 600.0, "[]", true, null, 12);

        RunRow ended = started(10).endedBy(end);

        assertThat(ended)
                .isEqualTo(new RunRow(
                        RUN,
                        "run/" + RUN,
                        "agent-a",
                        null,
                        null,
                        "completed",
                        "bench",
                        "key",
                        "intel-gaudi2",
                        8,
                        "host",
                        "{}",
                        "{}",
                        "[]",
                        "{}",
                        STARTED,
                        10,
                        FINISHED,
                        600.0,
                        "[]",
                        true,
                        null,
                        12));
    }

    @Test
    void theLastPositionIsTheLaterOfTheStartAndTheEnd() {
        RunEnd earlier = new RunEnd(RUN, "run/" + RUN, "agent-a", "failed", FINISHED, null, null, null, "{}", 5);

        assertThat(started(10).endedBy(earlier).lastPosition()).isEqualTo(10);
        assertThat(started(10).endedBy(earlier).startedPosition()).isEqualTo(10);
    }
}
