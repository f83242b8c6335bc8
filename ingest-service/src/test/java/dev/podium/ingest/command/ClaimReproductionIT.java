package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.podium.ingest.testing.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** From a published ratio claim to the campaign that measures its ratio on the user's pools. */
@QuarkusTest
class ClaimReproductionIT {

    @Inject
    AgroalDataSource dataSource;

    private String source;

    @BeforeEach
    void importClaims() {
        source = "repro-" + UUID.randomUUID().toString().substring(0, 8);
        String file = """
                source: %s
                title: "BridgeTower fine-tuning"
                defaults:
                  metric: train_samples_per_second
                  unit: samples/s
                  direction: HIGHER_IS_BETTER
                  device_count: 8
                  key: {benchmark: bridgetower-repro-test, total_accelerators: 8, extra: {dataloader: default}}
                claims:
                  - {id: h100-workers0, quote: "336.5", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "0"}}, value: 336.5, decimals: 1}
                  - {id: h100-workers1, quote: "580.1", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "1"}}, value: 580.1, decimals: 1}
                  - {id: a100-workers0, quote: "227.5", device: NVIDIA A100 80GB GPU, key: {extra: {dataloader_num_workers: "0"}}, value: 227.5, decimals: 1}
                  - id: h100-workers1-vs-workers0
                    quote: "1.72x"
                    device: NVIDIA H100 GPU
                    ratio: {baseline: NVIDIA H100 GPU at workers=0, numerator: h100-workers1, denominator: h100-workers0, form: TIMES}
                    value: 1.72
                    decimals: 2
                  - id: h100-vs-a100-workers0
                    quote: "1.48x"
                    device: NVIDIA H100 GPU
                    key: {extra: {dataloader_num_workers: "0"}}
                    ratio: {baseline: NVIDIA A100 80GB GPU, numerator: h100-workers0, denominator: a100-workers0, form: TIMES}
                    value: 1.48
                    decimals: 2
                  - id: a100-resnet50-ait-vs-eager
                    quote: "ResNet-50 3x-12x"
                    device: NVIDIA A100
                    key: {benchmark: aitemplate-inference, model: ResNet-50}
                    ratio: {baseline: PyTorch eager on the same card, form: TIMES}
                    range: [3, 12]
                    decimals: 0
                """.formatted(source);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType("application/yaml")
                .body(file.getBytes(StandardCharsets.UTF_8))
                .post("/admin/published?file=repro.yaml")
                .then()
                .statusCode(200)
                .body("imported", equalTo(6));
    }

    private String path(String claim) {
        return "/admin/claims/" + source + "/" + claim + "/reproduce";
    }

    @Test
    void aWorkersRatioBecomesOneJobPerPoolAndWorkersValue() {
        String campaign = given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "gpu-a,gpu-b")
                .post(path("h100-workers1-vs-workers0"))
                .then()
                .statusCode(201)
                .body("dimension", equalTo("dataloader_num_workers"))
                .body("baseline", equalTo("0"))
                .body("compared", equalTo("1"))
                .body("metric", equalTo("train_samples_per_second"))
                .extract()
                .path("campaign_id");
        Db db = new Db(dataSource);
        assertThat(db.rows(
                        "SELECT pool, spec->'parameters'->>'dataloader_num_workers', spec->>'adapter' FROM job "
                                + "WHERE campaign_id = ?::uuid ORDER BY pool, 2",
                        campaign))
                .containsExactly(
                        List.of("gpu-a", "0", "reference"), List.of("gpu-a", "1", "reference"),
                        List.of("gpu-b", "0", "reference"), List.of("gpu-b", "1", "reference"));
        assertThat(db.rows(
                        "SELECT source, claim_id, dimension, parameter, baseline_value, compared_value, actor "
                                + "FROM claim_reproduction WHERE campaign_id = ?::uuid",
                        campaign))
                .containsExactly(List.of(
                        source,
                        "h100-workers1-vs-workers0",
                        "dataloader_num_workers",
                        "dataloader_num_workers",
                        "0",
                        "1",
                        "ops"));
    }

    @Test
    void atOneDeviceARunTheJobsRunOneProcessAndTheReproductionSaysSo() {
        String campaign = given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "cpu-small")
                .queryParam("devices", "1")
                .post(path("h100-workers1-vs-workers0"))
                .then()
                .statusCode(201)
                .body("devices", equalTo(1))
                .extract()
                .path("campaign_id");
        Db db = new Db(dataSource);
        assertThat(db.rows(
                        "SELECT spec->'parameters'->>'nproc', spec->'parameters'->>'dataloader_num_workers' FROM job "
                                + "WHERE campaign_id = ?::uuid ORDER BY 2",
                        campaign))
                .containsExactly(List.of("1", "0"), List.of("1", "1"));
        assertThat(db.one("SELECT devices FROM claim_reproduction WHERE campaign_id = ?::uuid", campaign))
                .isEqualTo(1);
    }

    @Test
    void devicesOutOfRangeOrNotANumberOrForTheInferenceWorkloadAreRefusedAndCreateNothing() {
        Db db = new Db(dataSource);
        Object before = db.one("SELECT count(*) FROM campaign");
        for (String devices : List.of("0", "abc", "1000", "-1")) {
            assertThat(devicesRefused("h100-workers1-vs-workers0", devices))
                    .isEqualTo("must be a whole number of accelerators a run, from 1 to 999");
        }
        assertThat(devicesRefused("a100-resnet50-ait-vs-eager", "1"))
                .startsWith("the claim is reproduced with the inference workload");
        assertThat(db.one("SELECT count(*) FROM campaign")).isEqualTo(before);
    }

    /** The reason a reproduction of {@code claim} at {@code devices} is refused, the one problem of a 400. */
    private String devicesRefused(String claim, String devices) {
        return given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "p")
                .queryParam("devices", devices)
                .post(path(claim))
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations.field", contains("devices"))
                .extract()
                .path("violations[0].message");
    }

    @Test
    void aDeviceAgainstAnotherNeedsTheSubjectsPoolAndTheBaselinesPool() {
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "h100")
                .post(path("h100-vs-a100-workers0"))
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations.field", contains("pools"))
                .body("violations[0].message", startsWith("two pools, the subject's (NVIDIA H100 GPU)"));
        String campaign = given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "h100,a100")
                .post(path("h100-vs-a100-workers0"))
                .then()
                .statusCode(201)
                .body("dimension", equalTo("device"))
                .extract()
                .path("campaign_id");
        assertThat(new Db(dataSource).rows("SELECT pool FROM job WHERE campaign_id = ?::uuid ORDER BY pool", campaign))
                .containsExactly(List.of("a100"), List.of("h100"));
    }

    @Test
    void aFigureAnUnknownClaimAndAHostileIdAreRefusedAndCreateNothing() {
        Db db = new Db(dataSource);
        Object before = db.one("SELECT count(*) FROM campaign");
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "p")
                .post(path("h100-workers0"))
                .then()
                .statusCode(400)
                .body("violations.field", contains("claim"))
                .body("violations[0].message", startsWith("only a ratio claim"));
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "p")
                .post(path("nope"))
                .then()
                .statusCode(404);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "p")
                .post("/admin/claims/" + source + "/x'%3B%20DROP%20TABLE%20job%3B--/reproduce")
                .then()
                .statusCode(404);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .queryParam("pools", "../etc,<script>")
                .post(path("h100-workers1-vs-workers0"))
                .then()
                .statusCode(400)
                .body("violations.field", contains("pools[0]", "pools[1]"));
        given().queryParam("pools", "p")
                .post(path("h100-workers1-vs-workers0"))
                .then()
                .statusCode(401);
        assertThat(db.one("SELECT count(*) FROM campaign")).isEqualTo(before);
    }
}
