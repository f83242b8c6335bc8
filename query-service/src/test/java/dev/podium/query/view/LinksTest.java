package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinksTest {

    @Test
    void valuesAreEncodedExactlyAsUrlEncoderDoes() {
        for (String v : List.of(
                "bench-device-03",
                "2.4.0",
                "a_b*c",
                "Zz09",
                "a b",
                "a+b",
                "x&y=z",
                "<img src=x onerror=alert(1)>",
                "javascript:alert(1)",
                "/devices/../x",
                "é",
                "日本",
                "%00",
                "~tilde",
                "a\nb")) {
            assertThat(Links.to("/p").param("k", v).build())
                    .isEqualTo("/p?k=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
        }
    }

    @Test
    void anAgentsStringStaysOneQueryValueOrOnePathSegment() {
        assertThat(Links.to("/leaderboard")
                        .param("benchmark", "x&key=y#z")
                        .param("sort", "mean")
                        .build())
                .isEqualTo("/leaderboard?benchmark=x%26key%3Dy%23z&sort=mean");
        assertThat(Links.device("../admin?x=1 2")).isEqualTo("/devices/..%2Fadmin%3Fx%3D1%202");
    }
}
