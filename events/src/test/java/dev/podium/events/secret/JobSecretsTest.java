package dev.podium.events.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.sign.EventSigner;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobSecretsTest {

    private final byte[] mine = EventSigner.secretBytes(EventSigner.newSecret());
    private final byte[] other = EventSigner.secretBytes(EventSigner.newSecret());
    private final UUID job = UUID.randomUUID();
    private final UUID run = UUID.randomUUID();
    private final Map<String, String> values = Map.of("HF_TOKEN", "hf_s3cr3t-value", "WANDB_API_KEY", "w4ndb");

    @Test
    void theGrantedAgentOpensWhatWasSealedForIt() throws GeneralSecurityException {
        SealedSecrets sealed = JobSecrets.seal("pk_1", mine, job, run, 3, values);
        assertThat(JobSecrets.open(sealed, mine, job, run, 3)).isEqualTo(values);
        assertThat(sealed.ciphertext() + sealed.nonce())
                .doesNotContain("hf_s3cr3t")
                .doesNotContain("w4ndb");
    }

    @Test
    void anotherAgentsKeyDoesNotOpenIt() {
        SealedSecrets sealed = JobSecrets.seal("pk_1", mine, job, run, 3, values);
        assertThatThrownBy(() -> JobSecrets.open(sealed, other, job, run, 3))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void sealedSecretsCopiedToAnotherJobRunEpochOrKeyIdDoNotOpen() {
        SealedSecrets sealed = JobSecrets.seal("pk_1", mine, job, run, 3, values);
        assertThatThrownBy(() -> JobSecrets.open(sealed, mine, UUID.randomUUID(), run, 3))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> JobSecrets.open(sealed, mine, job, UUID.randomUUID(), 3))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> JobSecrets.open(sealed, mine, job, run, 4))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> JobSecrets.open(
                        new SealedSecrets("pk_2", sealed.nonce(), sealed.ciphertext()), mine, job, run, 3))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void aChangedOrMalformedCiphertextIsRefused() {
        SealedSecrets sealed = JobSecrets.seal("pk_1", mine, job, run, 1, values);
        byte[] bytes = Base64.getDecoder().decode(sealed.ciphertext());
        bytes[0] ^= 1;
        SealedSecrets flipped =
                new SealedSecrets("pk_1", sealed.nonce(), Base64.getEncoder().encodeToString(bytes));
        assertThatThrownBy(() -> JobSecrets.open(flipped, mine, job, run, 1))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> JobSecrets.open(new SealedSecrets("pk_1", "%%", "%%"), mine, job, run, 1))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() ->
                        JobSecrets.open(new SealedSecrets("pk_1", "AAAA", sealed.ciphertext()), mine, job, run, 1))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void hkdfMatchesRfc5869TestCase3() {
        byte[] ikm = new byte[22];
        java.util.Arrays.fill(ikm, (byte) 0x0b);
        assertThat(HexFormat.of().formatHex(JobSecrets.hkdf(ikm, new byte[0])))
                .isEqualTo("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d");
    }
}
