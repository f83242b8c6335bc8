package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    private final EventCodec codec = new EventCodec(Clock.fixed(SampleEvents.AT, ZoneOffset.UTC));

    @Test
    void interpolatesBetweenRanksAsNumpysDefaultDoes() {
        // numpy.percentile([4, 1, 3, 2], [50, 90, 99]) = [2.5, 3.7, 3.97]
        Percentiles p = Percentiles.of(List.of(4.0, 1.0, 3.0, 2.0));
        assertThat(p.n()).isEqualTo(4);
        assertThat(p.p50()).isEqualTo(2.5, offset(1e-12));
        assertThat(p.p90()).isEqualTo(3.7, offset(1e-12));
        assertThat(p.p99()).isEqualTo(3.97, offset(1e-12));
        // numpy.percentile(range(1, 1001), 99) = 990.01
        assertThat(Percentiles.of(IntStream.rangeClosed(1, 1000)
                                .mapToObj(i -> (double) i)
                                .toList())
                        .p99())
                .isEqualTo(990.01, offset(1e-9));
        // one value: no bound of the median or the 90th percentile; the 99th is at least it (99% sure), no upper bound
        assertThat(Percentiles.of(List.of(7.0)))
                .isEqualTo(new Percentiles(
                        1,
                        7.0,
                        7.0,
                        7.0,
                        new PercentileBounds(null, null),
                        new PercentileBounds(null, null),
                        new PercentileBounds(7.0, null)));
        assertThatThrownBy(() -> Percentiles.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMetricWithPercentilesRoundTripsAndOneWithoutStillDecodes() {
        Envelope old = SampleEvents.of(EventType.RunCompleted);
        RunCompleted rc = (RunCompleted) old.payload();
        Metric m = rc.metrics().get(0);
        Metric withPercentiles = new Metric(
                m.name(),
                m.unit(),
                m.direction(),
                m.scope(),
                m.warmupExcluded(),
                m.values(),
                m.statistics(),
                new Percentiles(120, 10.5, 12.0, 19.25));
        Envelope now = new Envelope(
                old.eventId(),
                old.type(),
                old.schemaVersion(),
                old.streamId(),
                old.seq(),
                old.agentId(),
                old.occurredAt(),
                new RunCompleted(rc.runId(), List.of(withPercentiles), rc.validity(), rc.durationSeconds()));
        Decoded d = codec.decode(codec.encode(now));
        assertThat(d).isInstanceOf(Decoded.Accepted.class);
        RunCompleted back = (RunCompleted) ((Decoded.Accepted) d).envelope().payload();
        assertThat(back.metrics().get(0).percentiles()).isEqualTo(new Percentiles(120, 10.5, 12.0, 19.25));

        assertThat(codec.toTree(old).path("payload").path("metrics").get(0).has("percentiles"))
                .isFalse();
        Decoded older = codec.decode(codec.encode(old));
        assertThat(older).isInstanceOf(Decoded.Accepted.class);
        assertThat(((RunCompleted) ((Decoded.Accepted) older).envelope().payload())
                        .metrics()
                        .get(0)
                        .percentiles())
                .isNull();
    }

    @Test
    void negativeOrNonFinitePercentilesAreRejected() throws Exception {
        ObjectNode root = codec.toTree(SampleEvents.of(EventType.RunCompleted));
        ((ObjectNode) root.path("payload").path("metrics").get(0))
                .putObject("percentiles")
                .put("n", 3)
                .put("p50", 1.0)
                .put("p90", 2.0)
                .put("p99", -3.0);
        Decoded d = codec.decode(codec.mapper().writeValueAsBytes(root));
        assertThat(d).isInstanceOf(Decoded.Rejected.class);
        assertThat(((Decoded.Rejected) d).violations())
                .anySatisfy(v -> assertThat(v.toString()).contains("p99"));
    }
}
