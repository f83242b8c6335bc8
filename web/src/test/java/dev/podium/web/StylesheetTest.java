package dev.podium.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StylesheetTest {

    private static String css() throws IOException {
        try (InputStream in = StylesheetTest.class.getResourceAsStream("/META-INF/resources/css/podium.css")) {
            assertThat(in).as("podium.css on the classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theStylesheetIsServedFromMetaInfResources() throws IOException {
        assertThat(css()).contains("table.data").contains(".verdict-holds").contains(".badge-published");
    }

    @Test
    void theStylesheetLoadsNothingFromElsewhere() throws IOException {
        assertThat(css()).doesNotContain("@import").doesNotContain("url(http").doesNotContain("//");
    }
}
