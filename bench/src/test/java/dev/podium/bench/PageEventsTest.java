package dev.podium.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.codec.Decoded;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PageEventsTest {

    private final byte[] secret = EventSigner.secretBytes(EventSigner.newSecret());
    private final PageEvents events = new PageEvents("t", "bench-agent", secret);

    @Test
    void loadedAndLiveRunsAreAcceptedByTheContractAndSigned() {
        List<ResultEvents.Signed> loaded = events.loaded(123, 20_000);
        List<ResultEvents.Signed> live = events.live(20_001, 2, Instant.now());
        assertThat(loaded)
                .extracting(s -> (Object) s.envelope().payload().getClass())
                .containsExactly(RunStarted.class, RunCompleted.class);
        assertThat(live)
                .extracting(s -> (Object) s.envelope().payload().getClass())
                .containsExactly(RunStarted.class, RunProgress.class, RunProgress.class, RunCompleted.class);
        for (ResultEvents.Signed s : concat(loaded, live)) {
            assertThat(events.codec().decode(s.value())).isInstanceOf(Decoded.Accepted.class);
            assertThat(EventSigner.verify(s.value(), s.signature(), secret)).isTrue();
            assertThat(s.envelope().agentId()).isEqualTo("bench-agent");
        }
    }

    @Test
    void runsCoverEveryKeyAndDeviceAndEveryBenchmarkHas24Keys() {
        Set<String> keys = new HashSet<>();
        Set<String> benchmarks = new HashSet<>();
        for (int k = 0; k < PageEvents.KEYS; k++) {
            keys.add(PageEvents.key(k).id());
            benchmarks.add(PageEvents.key(k).benchmark());
        }
        assertThat(keys).hasSize(480);
        assertThat(benchmarks).hasSize(20);
        Set<Integer> devices = new HashSet<>();
        for (long run = 0; run < 24_000; run += PageEvents.KEYS) {
            devices.add(PageEvents.deviceOf(run));
        }
        assertThat(devices).hasSize(PageEvents.DEVICES);
    }

    /** Neighbouring runs of one series must not be correlated, or the series is a staircase of spurious steps. */
    @Test
    void aSeriesNoiseIsIndependentFromRunToRun() {
        int points = 400;
        double[] y = new double[points];
        for (int j = 0; j < points; j++) {
            y[j] = PageEvents.noise(17 + (long) j * PageEvents.KEYS * PageEvents.DEVICES);
        }
        double mean = Arrays.stream(y).average().orElseThrow();
        double lag = 0;
        double variance = 0;
        for (int j = 0; j < points; j++) {
            variance += (y[j] - mean) * (y[j] - mean);
            if (j > 0) {
                lag += (y[j] - mean) * (y[j - 1] - mean);
            }
        }
        assertThat(lag / variance).isBetween(-0.15, 0.15);
        assertThat(mean).isBetween(9.0, 11.0);
        assertThat(Arrays.stream(y).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(Arrays.stream(y).max().orElseThrow()).isLessThan(20);
    }

    private static List<ResultEvents.Signed> concat(List<ResultEvents.Signed> a, List<ResultEvents.Signed> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
