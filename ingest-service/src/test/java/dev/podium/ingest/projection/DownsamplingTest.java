package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DownsamplingTest {

    @Test
    void aSeriesKeepsEverySampleUpToTheBoundThenHalfToAllOfIt() {
        Downsampling d = Downsampling.NONE.plus(Downsampling.MAX_POINTS);
        assertThat(d.stride()).isOne();
        for (long more : new long[] {1, 7, 10_000, 1_000_000, 50_000_000}) {
            d = d.plus(more);
            Downsampling s = d;
            long kept = LongStream.range(0, s.samples()).filter(s::keeps).count();
            assertThat(kept).isBetween((long) Downsampling.MAX_POINTS / 2, (long) Downsampling.MAX_POINTS);
            assertThat(Long.bitCount(s.stride())).isOne();
        }
    }

    @Test
    void theStrideDependsOnTheCountAloneNotOnHowSamplesWereBatched() {
        Downsampling oneByOne = Downsampling.NONE;
        for (int i = 0; i < 9_000; i++) {
            oneByOne = oneByOne.plus(1);
        }
        Downsampling together = Downsampling.NONE.plus(9_000);
        assertThat(oneByOne).isEqualTo(together);
        assertThat(together.thinned(Downsampling.NONE.plus(2_000))).isTrue();
        assertThat(together.thinned(Downsampling.NONE.plus(8_500))).isFalse();
    }
}
