package dev.podium.events.sign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.EventType;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.testing.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventSignerTest {

    private final byte[] record = new EventCodec().encode(SampleEvents.of(EventType.RunCompleted));
    private final byte[] secret = EventSigner.secretBytes(EventSigner.newSecret());

    @Test
    void verifiesItsOwnSignature() {
        String signature = EventSigner.sign(record, secret);

        assertThat(signature).matches("[0-9a-f]{64}");
        assertThat(EventSigner.verify(record, signature, secret)).isTrue();
    }

    @Test
    void signatureIsHmacSha256OfTheBytes() {
        // RFC 4231, test case 2.
        byte[] key = "Jefe".getBytes(StandardCharsets.US_ASCII);
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        assertThat(EventSigner.sign(data, key))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    @Test
    void anyChangedByteBreaksTheSignature() {
        String signature = EventSigner.sign(record, secret);
        for (int i = 0; i < record.length; i += 7) {
            byte[] changed = record.clone();
            changed[i] ^= 0x01;
            assertThat(EventSigner.verify(changed, signature, secret))
                    .as("byte %d", i)
                    .isFalse();
        }
    }

    @Test
    void reEncodedButSemanticallyEqualJsonDoesNotVerify() {
        String signature = EventSigner.sign(record, secret);
        byte[] spaced =
                new String(record, StandardCharsets.UTF_8).replace(",", ", ").getBytes(StandardCharsets.UTF_8);
        byte[] extended = (new String(record, StandardCharsets.UTF_8) + " ").getBytes(StandardCharsets.UTF_8);

        assertThat(EventSigner.verify(spaced, signature, secret)).isFalse();
        assertThat(EventSigner.verify(extended, signature, secret)).isFalse();
    }

    @Test
    void anotherSecretDoesNotVerify() {
        String signature = EventSigner.sign(record, secret);
        byte[] other = EventSigner.secretBytes(EventSigner.newSecret());

        assertThat(EventSigner.verify(record, signature, other)).isFalse();
        assertThat(EventSigner.sign(record, other)).isNotEqualTo(signature);
    }

    @Test
    void missingOrGarbledSignatureDoesNotVerify() {
        String signature = EventSigner.sign(record, secret);
        String flipped = (signature.charAt(0) == '0' ? "1" : "0") + signature.substring(1);

        assertThat(EventSigner.verify(record, null, secret)).isFalse();
        assertThat(EventSigner.verify(record, "", secret)).isFalse();
        assertThat(EventSigner.verify(record, "not hex at all", secret)).isFalse();
        assertThat(EventSigner.verify(record, signature.substring(0, 63), secret))
                .isFalse();
        assertThat(EventSigner.verify(record, signature + "00", secret)).isFalse();
        assertThat(EventSigner.verify(record, flipped, secret)).isFalse();
        assertThat(EventSigner.verify(record, "\u0000".repeat(64), secret)).isFalse();
    }

    @Test
    void upperCaseHexIsTheSameSignature() {
        String signature = EventSigner.sign(record, secret);
        assertThat(EventSigner.verify(record, signature.toUpperCase(), secret)).isTrue();
    }

    @Test
    void missingRecordOrSecretDoesNotVerify() {
        String signature = EventSigner.sign(record, secret);
        assertThat(EventSigner.verify(null, signature, secret)).isFalse();
        assertThat(EventSigner.verify(record, signature, null)).isFalse();
        assertThat(EventSigner.verify(record, signature, new byte[0])).isFalse();
    }

    @Test
    void newSecretsAre32RandomBytesInUrlSafeBase64() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String s = EventSigner.newSecret();
            assertThat(s).matches("[A-Za-z0-9_-]{43}");
            assertThat(EventSigner.secretBytes(s)).hasSize(32);
            assertThat(EventSigner.secretBytes(" " + s + "\n")).isEqualTo(EventSigner.secretBytes(s));
            seen.add(s);
        }
        assertThat(seen).hasSize(50);
    }

    @Test
    void headerNamesAreTheContracts() {
        assertThat(EventSigner.KEY_ID_HEADER).isEqualTo("podium-key-id");
        assertThat(EventSigner.SIGNATURE_HEADER).isEqualTo("podium-signature");
    }
}
