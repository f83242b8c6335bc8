package dev.podium.events.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CommandSignatureTest {

    final KeyPair key = CommandSignature.newKeyPair();
    final UUID job = UUID.randomUUID();
    final UUID run = UUID.randomUUID();
    final JobAssigned grant = new JobAssigned(job, run, "a1", 2, null);
    final byte[] value = "{\"the\": \"record\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aSignedGrantVerifiesUnderThePublicKeyFromItsText() {
        String sig = CommandSignature.sign(key.getPrivate(), grant, 2, value);
        assertThat(CommandSignature.verify(
                        CommandSignature.publicKey(CommandSignature.publicKeyText(key.getPublic())),
                        grant,
                        2,
                        value,
                        sig))
                .isTrue();
    }

    @Test
    void anotherKeyAnotherValueAnotherRunOrAnotherEpochDoesNotVerify() {
        String sig = CommandSignature.sign(key.getPrivate(), grant, 2, value);
        assertThat(CommandSignature.verify(CommandSignature.newKeyPair().getPublic(), grant, 2, value, sig))
                .isFalse();
        assertThat(CommandSignature.verify(key.getPublic(), grant, 2, "{}".getBytes(StandardCharsets.UTF_8), sig))
                .isFalse();
        assertThat(CommandSignature.verify(
                        key.getPublic(), new JobAssigned(job, UUID.randomUUID(), "a1", 2, null), 2, value, sig))
                .isFalse();
        assertThat(CommandSignature.verify(key.getPublic(), new JobAssigned(job, run, "a1", 3, null), 3, value, sig))
                .isFalse();
    }

    @Test
    void anEpochHeaderThatDisagreesWithThePayloadNeverVerifies() {
        assertThatThrownBy(() -> CommandSignature.sign(key.getPrivate(), grant, 3, value))
                .isInstanceOf(IllegalArgumentException.class);
        JobCancelled cancel = new JobCancelled(job, null, "alice");
        String sig = CommandSignature.sign(key.getPrivate(), cancel, 4, value);
        assertThat(CommandSignature.verify(key.getPublic(), cancel, 4, value, sig))
                .isTrue();
        assertThat(CommandSignature.verify(key.getPublic(), cancel, 5, value, sig))
                .isFalse();
    }

    @Test
    void anAgentsHmacOverTheSameBytesOrGarbageIsNoSignature() {
        assertThat(CommandSignature.verify(
                        key.getPublic(),
                        grant,
                        2,
                        value,
                        EventSigner.sign(value, EventSigner.secretBytes(EventSigner.newSecret()))))
                .isFalse();
        assertThat(CommandSignature.verify(key.getPublic(), grant, 2, value, "not base64 !"))
                .isFalse();
        assertThat(CommandSignature.verify(key.getPublic(), grant, 2, value, null))
                .isFalse();
        assertThatThrownBy(() -> CommandSignature.publicKey("AAAA")).isInstanceOf(IllegalArgumentException.class);
    }
}
