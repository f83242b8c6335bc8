package dev.podium.ingest.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DropLogTest {

    @Test
    void aFloodWritesOneLineAMinuteAndCountsTheRest() {
        List<String> lines = new ArrayList<>();
        AtomicLong now = new AtomicLong(0);
        DropLog log = new DropLog(lines::add, now::get);
        for (int i = 0; i < 10_000; i++) {
            log.dropped("dropped heartbeat %d", i);
        }
        assertThat(lines).containsExactly("dropped heartbeat 0");

        now.addAndGet(DropLog.WINDOW.toNanos());
        log.dropped("dropped heartbeat %s", "late");
        assertThat(lines)
                .containsExactly(
                        "dropped heartbeat 0",
                        "9999 more heartbeats dropped since the last line written (one a minute is)",
                        "dropped heartbeat late");
    }
}
