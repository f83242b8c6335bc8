package dev.podium.ingest.testing;

import static io.restassured.RestAssured.given;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** A published workers-ratio claim of a new source, and its reproduction made through the admin API. */
public final class Reproductions {

    private Reproductions() {}

    /** A reproduction of a published workers ratio on these pools; its campaign id. */
    public static UUID reproduce(String pools) {
        String source = "stale-" + UUID.randomUUID().toString().substring(0, 8);
        String file = """
                source: %s
                title: "Workers"
                defaults:
                  metric: train_samples_per_second
                  unit: samples/s
                  direction: HIGHER_IS_BETTER
                  device_count: 8
                  key: {benchmark: stale-test, total_accelerators: 8, extra: {dataloader: default}}
                claims:
                  - {id: w0, quote: "336.5", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "0"}}, value: 336.5, decimals: 1}
                  - {id: w1, quote: "580.1", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "1"}}, value: 580.1, decimals: 1}
                  - id: w1-vs-w0
                    quote: "1.72x"
                    device: NVIDIA H100 GPU
                    ratio: {baseline: NVIDIA H100 GPU at workers=0, numerator: w1, denominator: w0, form: TIMES}
                    value: 1.72
                    decimals: 2
                """.formatted(source);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType("application/yaml")
                .body(file.getBytes(StandardCharsets.UTF_8))
                .post("/admin/published?file=stale.yaml")
                .then()
                .statusCode(200);
        return UUID.fromString(given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .queryParam("pools", pools)
                .post("/admin/claims/" + source + "/w1-vs-w0/reproduce")
                .then()
                .statusCode(201)
                .extract()
                .path("campaign_id"));
    }
}
