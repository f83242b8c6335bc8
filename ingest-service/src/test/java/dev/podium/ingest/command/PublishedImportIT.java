package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasEntry;
import static org.hamcrest.Matchers.hasItem;

import dev.podium.events.StreamId;
import dev.podium.events.published.ClaimFile;
import dev.podium.ingest.testing.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Importing a claim file appends PublishedClaimImported events; importing it twice changes nothing. */
@QuarkusTest
class PublishedImportIT {

    @Inject
    AgroalDataSource dataSource;

    private static String file(String source) {
        return """
                source: %s
                title: "BridgeTower fine-tuning"
                defaults:
                  metric: train_samples_per_second
                  unit: samples/s
                  direction: HIGHER_IS_BETTER
                  device_count: 8
                  key: {benchmark: bridgetower-import-test, total_accelerators: 8, extra: {dataloader: default}}
                claims:
                  - id: gaudi2-workers0
                    quote: "| Intel Gaudi 2 HPU | 601.5 |"
                    device: Intel Gaudi 2 HPU
                    key: {extra: {dataloader_num_workers: "0"}}
                    value: 601.5
                    decimals: 1
                  - id: h100-workers0
                    quote: "| NVIDIA H100 GPU | 336.5 |"
                    device: NVIDIA H100 GPU
                    key: {extra: {dataloader_num_workers: "0"}}
                    value: 336.5
                    decimals: 1
                  - id: a100-workers0
                    quote: "| NVIDIA A100 | n/a |"
                    device: NVIDIA A100 80GB
                    key: {extra: {dataloader_num_workers: "0"}}
                    value: n/a
                  - id: gaudi2-vs-h100-workers0
                    quote: "Gaudi 2 vs H100 at workers=0: 1.79x"
                    device: Intel Gaudi 2 HPU
                    key: {extra: {dataloader_num_workers: "0"}}
                    ratio: {baseline: NVIDIA H100 GPU, numerator: gaudi2-workers0, denominator: h100-workers0, form: TIMES}
                    value: 1.79
                    decimals: 2
                """.formatted(source);
    }

    @Test
    void importingAClaimFileTwiceChangesNothing() {
        Db db = new Db(dataSource);
        String source = "import-" + UUID.randomUUID().toString().substring(0, 8);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType("application/yaml")
                .body(file(source).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/admin/published?file=bridgetower.yaml")
                .then()
                .statusCode(200)
                .body("imported", equalTo(4))
                .body("unchanged", equalTo(0));
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType("application/yaml")
                .body(file(source).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/admin/published")
                .then()
                .statusCode(200)
                .body("imported", equalTo(0))
                .body("unchanged", equalTo(4));

        assertThat(db.rows(
                        "SELECT seq, event_id::text, writer, payload->>'actor' FROM event_store WHERE stream_id = ? ORDER BY seq",
                        "published/" + source))
                .containsExactly(
                        List.of(1L, ClaimFile.eventId(source, "gaudi2-workers0").toString(), "command:ops", "ops"),
                        List.of(2L, ClaimFile.eventId(source, "h100-workers0").toString(), "command:ops", "ops"),
                        List.of(3L, ClaimFile.eventId(source, "a100-workers0").toString(), "command:ops", "ops"),
                        List.of(
                                4L,
                                ClaimFile.eventId(source, "gaudi2-vs-h100-workers0")
                                        .toString(),
                                "command:ops",
                                "ops"));
        assertThat(db.rows(
                        "SELECT claim_id, value_kind, is_ratio, value FROM proj_published_claim WHERE source = ? ORDER BY claim_id",
                        source))
                .containsExactly(
                        java.util.Arrays.asList("a100-workers0", "n/a", false, null),
                        List.of("gaudi2-vs-h100-workers0", "value", true, 1.79),
                        List.of("gaudi2-workers0", "value", false, 601.5),
                        List.of("h100-workers0", "value", false, 336.5));
        assertThat(db.rows("""
                SELECT device_id, runs, mean FROM proj_leaderboard_row
                WHERE benchmark = 'bridgetower-import-test' AND source = 'published' AND key_id IN
                      (SELECT key_id FROM proj_published_claim WHERE source = ?) ORDER BY device_id""", source)).contains(List.of("intel-gaudi2", 1, 601.5));
    }

    @Test
    void aBrokenClaimFileIsRefusedWithEveryProblemNamed() {
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType("application/yaml")
                .body(file("broken-" + UUID.randomUUID().toString().substring(0, 8))
                        .replace("value: 336.5", "range: [12, 3]")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/admin/published?file=bridgetower.yaml")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body(
                        "violations",
                        hasItem(allOf(
                                hasEntry("field", "claims['h100-workers0'].range"),
                                hasEntry("message", "low 12.0 is above high 3.0"))));
    }

    @Test
    void aClaimFileWithSeveralErrorsIsAnsweredWithEveryViolationAndNothingIsImported() {
        String source = "several-" + UUID.randomUUID().toString().substring(0, 8);
        String body = file(source)
                .replace("title: \"BridgeTower fine-tuning\"", "title: 5")
                .replace("direction: HIGHER_IS_BETTER", "direction: UPWARDS")
                .replace("value: 336.5", "range: [12, 3]")
                .replace("form: TIMES}", "form: HALVES}\n    colour: red");
        Response r = given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType("application/yaml")
                .body(body.getBytes(StandardCharsets.UTF_8))
                .post("/admin/published?file=several.yaml");
        r.then().statusCode(400).contentType("application/problem+json");
        String ratio = "claims['gaudi2-vs-h100-workers0']";
        assertThat(r.jsonPath().getList("violations.field", String.class))
                .containsExactly(
                        "title",
                        "defaults.direction",
                        "claims['h100-workers0'].range",
                        ratio + ".colour",
                        ratio + ".ratio.form");
        assertThat(r.jsonPath().getList("violations.message", String.class))
                .startsWith(
                        "must be a string",
                        "'UPWARDS' is not one of HIGHER_IS_BETTER, LOWER_IS_BETTER",
                        "low 12.0 is above high 3.0")
                .endsWith("'HALVES' is not one of TIMES, PERCENT_MORE");
        assertThat(r.jsonPath().getString("detail")).isEqualTo("title: must be a string (and 4 more)");
        assertThat(new Db(dataSource)
                        .count(
                                "SELECT count(*) FROM event_store WHERE stream_id = ?",
                                StreamId.published(source).value()))
                .isZero();
    }

    @Test
    void importingNeedsANamedToken() {
        given().contentType("application/yaml")
                .body(file("nope").getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/admin/published")
                .then()
                .statusCode(401);
    }
}
