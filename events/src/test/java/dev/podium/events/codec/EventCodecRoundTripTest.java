package dev.podium.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.testing.SampleEvents;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventCodecRoundTripTest {

    private final EventCodec codec = new EventCodec(Clock.fixed(SampleEvents.AT, ZoneOffset.UTC));

    @Test
    void samplesCoverEveryEventType() {
        assertThat(SampleEvents.all()).extracting(Envelope::type).containsExactly(EventType.values());
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void everyEventTypeRoundTripsThroughTheCodec(EventType type) {
        Envelope sample = SampleEvents.of(type);
        byte[] bytes = codec.encode(sample);

        Decoded decoded = codec.decode(bytes);

        assertThat(decoded).isInstanceOf(Decoded.Accepted.class);
        Decoded.Accepted accepted = (Decoded.Accepted) decoded;
        assertThat(accepted.envelope()).isEqualTo(sample);
        assertThat(accepted.contentHash()).isEqualTo(EventCodec.contentHash(bytes));
        assertThat(codec.decodeTrusted(bytes)).isEqualTo(sample);
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void encodingIsDeterministic(EventType type) {
        byte[] first = codec.encode(SampleEvents.of(type));
        byte[] again = new EventCodec().encode(SampleEvents.of(type));
        byte[] reEncoded = codec.encode(codec.decodeTrusted(first));

        assertThat(again).isEqualTo(first);
        assertThat(reEncoded).isEqualTo(first);
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void payloadBindsFromStoredJson(EventType type) throws Exception {
        Envelope sample = SampleEvents.of(type);
        String payloadJson =
                codec.mapper().writeValueAsString(codec.toTree(sample).get("payload"));

        assertThat(codec.payloadFromJson(type, payloadJson)).isEqualTo(sample.payload());
    }

    @Test
    void mapEntriesAreWrittenInKeyOrderWhateverTheMapsIterationOrder() {
        java.util.LinkedHashMap<String, String> reversed = new java.util.LinkedHashMap<>();
        reversed.put("zeta", "1");
        reversed.put("alpha", "2");
        var spec = SampleEvents.jobSpec();
        var shuffled = new dev.podium.events.model.JobSpec(
                spec.benchmark(),
                spec.adapter(),
                spec.command(),
                spec.parser(),
                reversed,
                spec.matrix(),
                spec.repetitions(),
                spec.warmupSteps(),
                spec.timeoutSeconds(),
                reversed,
                spec.nodes(),
                spec.devicesPerNode(),
                spec.pool());
        Envelope e = SampleEvents.envelope(
                dev.podium.events.StreamId.job(SampleEvents.JOB_ID),
                1,
                null,
                SampleEvents.AT,
                new dev.podium.events.job.JobRequested(SampleEvents.JOB_ID, null, "gaudi2", shuffled));

        String json = EventCodec.utf8(codec.encode(e));

        assertThat(json)
                .contains("\"parameters\":{\"alpha\":\"2\",\"zeta\":\"1\"}")
                .contains("\"environment\":{\"alpha\":\"2\",\"zeta\":\"1\"}");
        assertThat(json.indexOf("\"event_id\"")).isLessThan(json.indexOf("\"payload\""));
    }

    @Test
    void envelopeFieldsAreSnakeCase() {
        String json = EventCodec.utf8(codec.encode(SampleEvents.of(EventType.RunStarted)));

        assertThat(json)
                .startsWith("{\"event_id\":")
                .contains(
                        "\"schema_version\":1",
                        "\"stream_id\":\"run/",
                        "\"agent_id\":\"gaudi2-host-1\"",
                        "\"occurred_at\":\"2026-01-15T10:00:00Z\"",
                        "\"per_device_batch_size\":32");
    }

    @Test
    void commandSideEventsCarryNoAgentId() {
        List<EventType> commandSide = Stream.of(EventType.values())
                .filter(t -> !t.streamKind().writtenByAgent())
                .toList();
        assertThat(commandSide).isNotEmpty();
        for (EventType t : commandSide) {
            assertThat(codec.toTree(SampleEvents.of(t)).has("agent_id"))
                    .as(t.name())
                    .isFalse();
            assertThat(SampleEvents.of(t).agentId()).isNull();
        }
    }

    @Test
    void completedRunStreamIsValidAndNumbered() {
        var stream = SampleEvents.completedRun(
                SampleEvents.uuid("r"),
                "h100-host",
                "nvidia-h100-sxm-80gb",
                SampleEvents.referenceKey(2),
                SampleEvents.AT,
                List.of(580.0, 581.5, 579.0));
        assertThat(stream).extracting(Envelope::seq).containsExactly(1L, 2L, 3L);
        for (Envelope e : stream) {
            assertThat(codec.decode(codec.encode(e))).isInstanceOf(Decoded.Accepted.class);
        }
        assertThat(Arrays.asList(stream.get(0).streamId(), stream.get(2).streamId()))
                .containsOnly("run/" + SampleEvents.uuid("r"));
    }
}
