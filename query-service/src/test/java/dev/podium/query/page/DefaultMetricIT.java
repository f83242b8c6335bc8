package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/** The local reference benchmark has train_loss and train_samples_per_second equally often; train_loss sorts first. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class DefaultMetricIT {

    @Test
    void comparisonWithoutAMetricShowsTheThroughput() {
        assertThat(given().when()
                        .get("/api/v1/comparison?benchmark=" + SeedData.LOCAL_BENCHMARK)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("query.metric"))
                .isEqualTo("train_samples_per_second");
        assertThat(Jsoup.parse(given().when()
                                .get("/compare?benchmark=" + SeedData.LOCAL_BENCHMARK)
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString())
                        .selectFirst("select[name=metric] option[selected]")
                        .val())
                .isEqualTo("train_samples_per_second");
    }

    @Test
    void leaderboardWithoutAMetricShowsTheThroughput() {
        assertThat(given().when()
                        .get("/api/v1/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("query.metric"))
                .isEqualTo("train_samples_per_second");
    }

    @Test
    void aMetricAskedForIsKept() {
        assertThat(given().when()
                        .get("/api/v1/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK + "&metric=train_loss")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("query.metric"))
                .isEqualTo("train_loss");
    }
}
