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
    void leavesEverythingElseAsItIs() {
        assertThat(Html.escaped(new StringBuilder("x"), "NVIDIA H200 × 8 — 1.93×").toString()).isEqualTo("xNVIDIA H200 × 8 — 1.93×");
        assertThat(Html.escaped(new StringBuilder("x"), null).toString()).isEqualTo("x");
    }
}
