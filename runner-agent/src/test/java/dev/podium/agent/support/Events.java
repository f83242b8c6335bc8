package dev.podium.agent.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** Checks records as ingest would: decode and validate with {@code events}, verify the signature, key = stream id. */
public final class Events {

    private static final EventCodec CODEC = new EventCodec();

    private Events() {}

    public static List<Envelope> verified(List<ConsumerRecord<String, byte[]>> records, String keyId, byte[] secret) {
        List<Envelope> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            Decoded d = CODEC.decode(r.value());
            assertThat(d)
                    .as("record %s", new String(r.value(), StandardCharsets.UTF_8))
                    .isInstanceOf(Decoded.Accepted.class);
            Envelope e = ((Decoded.Accepted) d).envelope();
            assertThat(r.key()).isEqualTo(e.streamId());
            assertThat(header(r, EventSigner.KEY_ID_HEADER)).isEqualTo(keyId);
            assertThat(EventSigner.verify(r.value(), header(r, EventSigner.SIGNATURE_HEADER), secret))
                    .isTrue();
            out.add(e);
        }
        return out;
    }

    public static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Envelopes by stream, each stream in seq order. */
    public static Map<String, List<Envelope>> byStream(List<Envelope> envelopes) {
        Map<String, List<Envelope>> m = new TreeMap<>();
        envelopes.forEach(
                e -> m.computeIfAbsent(e.streamId(), k -> new ArrayList<>()).add(e));
        m.values().forEach(l -> l.sort(java.util.Comparator.comparingLong(Envelope::seq)));
        return m;
    }

    /** Each stream's seqs are exactly 1..n: nothing lost, nothing twice. */
    public static void assertCompleteStreams(Map<String, List<Envelope>> streams) {
        streams.forEach((id, list) -> {
            for (int i = 0; i < list.size(); i++) {
                assertThat(list.get(i).seq()).as("seq %d of %s", i + 1, id).isEqualTo(i + 1);
            }
        });
    }
}
