package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AtomFeedTest {

    private static final String HOSTILE = "<script>alert(1)</script>&amp;\u0000\u0007]]>";

    @Test
    void charactersXmlCannotCarryAreDroppedAndTheRestIsKeptForTheTemplateToEscape() {
        Change c = new Change(
                Change.REGRESSION,
                HOSTILE,
                "k1",
                HOSTILE,
                HOSTILE,
                HOSTILE,
                HOSTILE,
                100,
                90,
                0.9,
                12,
                20,
                new UUID(0, 1),
                Instant.parse("2026-11-02T03:04:05Z"),
                HOSTILE,
                "2.5.1",
                "/history?key=k1&metric=%3Cscript%3E");
        AtomFeed feed = AtomFeed.of(
                new RegressionsView("regressions", null, List.of(), 100, "m", 1, 30, List.of(c)),
                "http://podium.example/");

        assertThat(feed.entries()).hasSize(1);
        AtomFeed.Entry e = feed.entries().get(0);
        assertThat(e.title())
                .contains("<script>alert(1)</script>&amp;]]>")
                .doesNotContain("\u0000")
                .doesNotContain("\u0007");
        assertThat(e.summary()).doesNotContain("\u0000").doesNotContain("\u0007");
        assertThat(e.link()).isEqualTo("http://podium.example/history?key=k1&metric=%3Cscript%3E");
        assertThat(feed.updated()).isEqualTo("2026-11-02T03:04:05Z");
    }

    @Test
    void anEmptyFeedHasAFixedUpdatedTimeAndItsOwnLinks() {
        AtomFeed feed = AtomFeed.of(
                new RegressionsView("all", "bench", List.of(), 100, "m", 0, 0, List.of()), "http://podium.example");

        assertThat(feed.entries()).isEmpty();
        assertThat(feed.updated()).isEqualTo("2020-01-01T00:00:00Z");
        assertThat(feed.self()).isEqualTo("http://podium.example/regressions.atom?kind=all&benchmark=bench");
        assertThat(feed.alternate()).isEqualTo("http://podium.example/regressions?kind=all&benchmark=bench");
    }
}
