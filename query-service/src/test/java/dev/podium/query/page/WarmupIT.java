package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.query.support.PostgresDatabase;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Readiness waits for the warm-up, which requests the pages from the service's own HTTP port (so the code a user's
 * first request runs is compiled), and then says UP.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
@TestProfile(WarmupIT.OneSecond.class)
class WarmupIT {

    public static class OneSecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("podium.query.warmup", "1s", "quarkus.http.test-port", "28391");
        }
    }

    private static final Pattern LEADERBOARD_REQUESTS =
            Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"/leaderboard\"[^}]*} ([0-9.]+)");

    /** Metrics are on the management interface only (PublicPortIT); the path is relative to its root, /q. */
    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Test
    void readinessIsUpOnceThePagesWereRequestedThroughHttp() {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> given().get("/q/health/ready").statusCode() == 200);
        assertThat(given().get("/q/health/ready").asString())
                .contains("pages warmed up")
                .contains("UP");

        Matcher m = LEADERBOARD_REQUESTS.matcher(given().get(metrics).asString());
        assertThat(m.find())
                .as("the warm-up's leaderboard requests are counted")
                .isTrue();
        assertThat(Double.parseDouble(m.group(1))).isGreaterThan(1);
    }
}
