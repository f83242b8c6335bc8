package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** How a listed record's prefix is shown: text when it is UTF-8, cut characters allowed at its end; hex otherwise. */
class RejectedResourceTest {

    @Test
    void aPrefixCutInsideACharacterIsStillText() {
        byte[] bytes = "{\"m\":\"é€😀\"}".getBytes(StandardCharsets.UTF_8);
        for (int cut = 1; cut <= bytes.length; cut++) {
            byte[] prefix = Arrays.copyOf(bytes, cut);
            assertThat(RejectedResource.utf8(prefix)).as("first %d bytes", cut).isPresent();
            assertThat(RejectedResource.utf8(prefix).get())
                    .isEqualTo(new String(bytes, StandardCharsets.UTF_8)
                            .substring(0, RejectedResource.utf8(prefix).get().length()));
        }
    }

    @Test
    void bytesThatAreNotUtf8AreNotText() {
        assertThat(RejectedResource.utf8(new byte[] {(byte) 0xff, (byte) 0xfe, 'a', 'b', 'c'}))
                .isEmpty();
        assertThat(RejectedResource.utf8(new byte[] {'{', (byte) 0xc3, '"', '}', 'x', 'y'}))
                .isEmpty();
        assertThat(RejectedResource.utf8(new byte[] {'a', (byte) 0xff})).isEmpty();
        assertThat(RejectedResource.utf8(new byte[0])).contains("");
    }
}
