package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void escapesWhatCouldOpenATagAnAttributeOrAnEntity() {
        assertThat(Html.escaped(new StringBuilder(), "<img src=x onerror=\"alert('1')\"> & co").toString())
                .isEqualTo("&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co");
    }

    @Test
    void escapesEachSpecialCharacterBetweenRunsOfPlainOnes() {
        assertThat(Html.escaped(new StringBuilder("x"), "/compare?benchmark=a&param=b&baseline=c\"").toString())
                .isEqualTo("x/compare?benchmark=a&amp;param=b&amp;baseline=c&quot;");
        assertThat(Html.escaped(new StringBuilder(), "&&<>").toString()).isEqualTo("&amp;&amp;&lt;&gt;");
    }

    @Test
    void writesEveryCharacterOutsideAsciiAsAReferenceAndLeavesTheRestAsItIs() {
        assertThat(Html.escaped(new StringBuilder("x"), "NVIDIA H200 × 8 — 1.93×").toString())
                .isEqualTo("xNVIDIA H200 &#215; 8 &#8212; 1.93&#215;");
        assertThat(Html.escaped(new StringBuilder(), "GPU \uD83D\uDE80 é").toString()).as("a pair of surrogates is one reference")
                .isEqualTo("GPU &#128640; &#233;");
        assertThat(Html.escaped(new StringBuilder("x"), null).toString()).isEqualTo("x");
    }

    @Test
    void returnsTheSameStringWhenNothingNeedsEscaping() {
        String plain = "bench-device-03 1088.4";
        assertThat(Html.escaped(plain)).isSameAs(plain);
        assertThat(Html.escaped("a < b · c")).isEqualTo("a &lt; b &#183; c");
    }
}
