package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiReferencesTest {

    @Test
    void writesEveryCharacterOutsideAsciiAsAReferenceAndLeavesTheRestAsItIs() {
        assertThat(ascii("NVIDIA H200 × 8 — 1.93× &lt;b&gt;"))
                .isEqualTo("NVIDIA H200 &#215; 8 &#8212; 1.93&#215; &lt;b&gt;");
        assertThat(ascii("GPU \uD83D\uDE80 é"))
                .as("a pair of surrogates is one reference")
                .isEqualTo("GPU &#128640; &#233;");
    }

    @Test
    void asciiTextGivesItsOwnBytes() {
        String plain = "/compare?benchmark=a&amp;param=b";
        assertThat(AsciiReferences.bytes(plain)).isEqualTo(plain.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void textOfOnlyReferencesGrowsPastItsFirstGuess() {
        String wide = "×".repeat(5000) + "\uD83D\uDE80".repeat(300);
        assertThat(ascii(wide)).isEqualTo("&#215;".repeat(5000) + "&#128640;".repeat(300));
    }

    private static String ascii(String text) {
        return new String(AsciiReferences.bytes(text), StandardCharsets.US_ASCII);
    }
}
