package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private final AtomicLong now = new AtomicLong();
    private final Progress progress = new Progress(now::get);
    private final Duration limit = Duration.ofSeconds(60);

    @Test
    void recordsWaitingLongerThanTheLimitWithoutAWriteIsStalled() {
        progress.recordsWaiting();
        now.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(progress.stalled(limit)).isTrue();
        progress.advanced(false);
        assertThat(progress.stalled(limit)).isFalse();
    }

    @Test
    void anIdleConsumerIsNeverStalled() {
        progress.advanced(false);
        now.addAndGet(Duration.ofHours(1).toNanos());
        assertThat(progress.stalled(limit)).isFalse();
    }
}
