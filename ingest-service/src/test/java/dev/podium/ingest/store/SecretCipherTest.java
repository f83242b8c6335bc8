package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    private static final String MASTER = Base64.getEncoder().encodeToString(new byte[32]);
    private final SecretCipher cipher = new SecretCipher(MASTER);
    private final byte[] secret = "a secret of thirty-two bytes....".getBytes(StandardCharsets.UTF_8);

    @Test
    void aSealedSecretOpensUnderItsKeyIdOnly() throws Exception {
        SecretCipher.Sealed sealed = cipher.seal("pk_1", secret);
        assertThat(sealed.ciphertext()).isNotEqualTo(secret);
        assertThat(cipher.open("pk_1", sealed.ciphertext(), sealed.nonce())).isEqualTo(secret);
        assertThatThrownBy(() -> cipher.open("pk_2", sealed.ciphertext(), sealed.nonce()))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void anotherMasterKeyCannotOpenIt() {
        SecretCipher.Sealed sealed = cipher.seal("pk_1", secret);
        byte[] other = new byte[32];
        other[0] = 1;
        SecretCipher wrong = new SecretCipher(Base64.getEncoder().encodeToString(other));
        assertThatThrownBy(() -> wrong.open("pk_1", sealed.ciphertext(), sealed.nonce()))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void aMasterKeyOfTheWrongSizeIsAClearStartupError() {
        assertThatThrownBy(() -> new SecretCipher(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("podium.ingest.master-key must be 32 bytes");
        assertThatThrownBy(() -> new SecretCipher("not base64!"))
                .hasMessageContaining("podium.ingest.master-key is not base64");
    }
}
