package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** An agent's key as the admin API issued it, signing records the way runner-agent does. */
public record Credentials(String agentId, String keyId, String secret) {

    public static final String EVENTS = "podium.events";
    private static final EventCodec CODEC = new EventCodec();

    public byte[] encode(Envelope e) {
        return CODEC.encode(e);
    }

    public ProducerRecord<byte[], byte[]> signed(Envelope e) {
        return signedBytes(e.streamId(), encode(e));
    }

    public ProducerRecord<byte[], byte[]> signedBytes(String key, byte[] value) {
        return record(key, value, keyId, EventSigner.sign(value, EventSigner.secretBytes(secret)));
    }

    public static ProducerRecord<byte[], byte[]> record(String key, byte[] value, String keyId, String signature) {
        RecordHeaders headers = new RecordHeaders();
        if (keyId != null) {
            headers.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        }
        if (signature != null) {
            headers.add(EventSigner.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>(
                EVENTS, null, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value, headers);
    }
}
