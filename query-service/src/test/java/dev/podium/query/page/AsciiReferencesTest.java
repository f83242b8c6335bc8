package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AsciiReferencesTest {

    @Test
    void writesEveryCharacterOutsideAsciiAsAReferenceAndLeavesTheRestAsItIs() {
        assertThat(AsciiReferences.of("NVIDIA H200 × 8 — 1.93× &lt;b&gt;"))
                .isEqualTo("NVIDIA H200 &#215; 8 &#8212; 1.93&#215; &lt;b&gt;");
        assertThat(AsciiReferences.of("GPU \uD83D\uDE80 é"))
                .as("a pair of surrogates is one reference")
                .isEqualTo("GPU &#128640; &#233;");
    }

    @Test
    void returnsAsciiTextItself() {
        String plain = "/compare?benchmark=a&amp;param=b";
        assertThat(AsciiReferences.of(plain)).isSameAs(plain);
    }
}
