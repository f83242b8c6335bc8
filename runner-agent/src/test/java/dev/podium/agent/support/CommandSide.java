package dev.podium.agent.support;

import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobEvent;
import dev.podium.events.sign.CommandSignature;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The command side's signing key in tests: records of podium.jobs signed the way ingest's outbox signs them. */
public final class CommandSide {

    private static final EventCodec CODEC = new EventCodec();
    private final KeyPair key = CommandSignature.newKeyPair();

    public PublicKey publicKey() {
        return key.getPublic();
    }

    public String publicKeyText() {
        return CommandSignature.publicKeyText(key.getPublic());
    }

    /** The epoch a record of the command side would carry: the payload's, else 1 (a job's first offer). */
    public static int epochOf(JobEvent event) {
        Integer stated = CommandSignature.epochInPayload(event);
        return stated == null ? 1 : stated;
    }

    /** A record of podium.jobs for an encoded job event, signed for its epoch. */
    public ProducerRecord<String, byte[]> signed(Integer partition, UUID key, byte[] value) {
        JobEvent event =
                (JobEvent) ((Decoded.Accepted) CODEC.decode(value)).envelope().payload();
        return signed(partition, key, value, event, epochOf(event));
    }

    public ProducerRecord<String, byte[]> signed(Integer partition, UUID key, byte[] value, JobEvent event, int epoch) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>("podium.jobs", partition, key.toString(), value);
        r.headers().add(CommandSignature.EPOCH_HEADER, Integer.toString(epoch).getBytes(StandardCharsets.UTF_8));
        r.headers()
                .add(
                        CommandSignature.SIGNATURE_HEADER,
                        CommandSignature.sign(this.key.getPrivate(), event, epoch, value)
                                .getBytes(StandardCharsets.UTF_8));
        return r;
    }
}
