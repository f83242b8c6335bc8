package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
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

    @Test
    void everyLengthOfSequenceBetweenLongAsciiRunsIsOneReference() {
        String run = "<td class=\"num\">1.93</td>".repeat(200);
        String text = run + "\u00e9" + run + "\u2014" + run + "\uD83D\uDE80" + run + "\u00b7";
        assertThat(ascii(text)).isEqualTo(run + "&#233;" + run + "&#8212;" + run + "&#128640;" + run + "&#183;");
    }

    @Test
    void aLoneSurrogateIsNoCharacterAndBecomesAQuestionMark() {
        assertThat(ascii("a\uD83Db \uDE80")).isEqualTo("a?b ?");
    }

    @Test
    void randomTextIsWrittenCodePointByCodePoint() {
        Random random = new Random(17);
        int[] planes = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
        for (int round = 0; round < 500; round++) {
            StringBuilder text = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            for (int k = random.nextInt(300); k > 0; k--) {
                int cp = random.nextInt(planes[random.nextInt(planes.length)] + 1);
                if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                    continue;
                }
                text.appendCodePoint(cp);
                expected.append(cp < 0x80 ? String.valueOf((char) cp) : "&#" + cp + ";");
            }
            assertThat(ascii(text.toString())).isEqualTo(expected.toString());
        }
    }

    private static String ascii(String text) {
        return new String(AsciiReferences.bytes(text), StandardCharsets.US_ASCII);
    }
}
