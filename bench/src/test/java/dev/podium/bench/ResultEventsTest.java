package dev.podium.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.codec.Decoded;
import dev.podium.events.sign.EventSigner;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultEventsTest {

    private final byte[] secret = EventSigner.secretBytes(EventSigner.newSecret());

    @Test
    void resultEventsAreValidSignedAndAboutOneKilobyte() {
        ResultEvents gen = new ResultEvents("t", 200, secret);
        List<ResultEvents.Signed> run = gen.signedRun(7);
        assertThat(run).hasSize(2);
        for (ResultEvents.Signed s : run) {
            assertThat(gen.codec().decode(s.value())).isInstanceOf(Decoded.Accepted.class);
            assertThat(EventSigner.verify(s.value(), s.signature(), secret)).isTrue();
            assertThat(s.value().length).isBetween(600, 1800);
        }
    }

    @Test
    void percentilesAreNearestRank() {
        double[] v = {5, 1, 4, 2, 3};
        assertThat(Stats.percentile(v, 50)).isEqualTo(3);
        assertThat(Stats.percentile(v, 99)).isEqualTo(5);
        assertThat(Stats.meanCi(List.of(1.0, 1.0, 1.0)).halfWidth()).isZero();
    }
}
