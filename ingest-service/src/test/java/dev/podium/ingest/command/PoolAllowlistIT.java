package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.testing.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@code operate} token runs only what a pool allows (application.properties, test profile: pool
 * {@code bench-tools} may start commands under /opt/bench/ and the reference workload; every other pool the shipped
 * workloads and no command). A campaign outside its pools' lists answers 400 naming the pool and what it does not
 * allow, and nothing is written or signed.
 */
@QuarkusTest
class PoolAllowlistIT {

    private static final String OPERATE = "test-operate-token-of-32-chars-or-more";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aCommandJobForAPoolThatAllowsNoCommandIsRefused() {
        String name = "no-commands-" + UUID.randomUUID();
        Response refused = submit(name, List.of("gpu-" + name), "command", List.of("/bin/sh", "-c", "id"));

        refused.then().statusCode(400);
        assertThat(refused.jsonPath().getString("detail"))
                .isEqualTo("spec.command: pool gpu-" + name + " allows no command jobs, so not '/bin/sh' (allowed:"
                        + " adapters [inference, mamf, reference], no commands)");
        assertNothingWritten(name);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/bin/sh",
                "/opt/bench/../../bin/sh",
                "/opt/bench/./run.sh",
                "/opt/benchmarks/run.sh",
                "{tool}",
                "bash"
            })
    void aCommandOutsideThePoolsListIsRefused(String executable) {
        String name = "outside-" + UUID.randomUUID();
        Response refused = submit(name, List.of("bench-tools"), "command", List.of(executable, "--steps", "1"));

        refused.then().statusCode(400);
        assertThat(refused.jsonPath().getString("detail"))
                .startsWith("spec.command: ")
                .contains("pool bench-tools")
                .contains(executable);
        assertNothingWritten(name);
    }

    @Test
    void oneRefusingPoolRefusesTheWholeCampaign() {
        String name = "mixed-" + UUID.randomUUID();
        Response refused = submit(name, List.of("bench-tools", "cpu-" + name), "command", List.of("/opt/bench/run.sh"));

        refused.then().statusCode(400);
        assertThat(refused.jsonPath().getString("detail")).contains("pool cpu-" + name + " allows no command jobs");
        assertNothingWritten(name);
    }

    @Test
    void anAdapterThePoolDoesNotListIsRefused() {
        String name = "inference-" + UUID.randomUUID();
        Response refused = submit(name, List.of("bench-tools"), "inference", null);

        refused.then().statusCode(400);
        assertThat(refused.jsonPath().getString("detail"))
                .isEqualTo("spec.adapter: pool bench-tools does not allow adapter 'inference' (allowed: adapters"
                        + " [reference], commands [/opt/bench/])");
        assertNothingWritten(name);
    }

    @Test
    void aCommandThePoolAllowsAndTheShippedWorkloadsRun() {
        submit("allowed-" + UUID.randomUUID(), List.of("bench-tools"), "command", List.of("/opt/bench/run.sh", "1"))
                .then()
                .statusCode(201);
        submit("reference-" + UUID.randomUUID(), List.of("gpu-x"), "reference", null)
                .then()
                .statusCode(201);
    }

    private static Response submit(String name, List<String> pools, String adapter, List<String> command) {
        Map<String, Object> spec = new HashMap<>(Map.of(
                "benchmark",
                "allowlist-check",
                "adapter",
                adapter,
                "parameters",
                Map.of(),
                "matrix",
                Map.of(),
                "repetitions",
                1,
                "warmup_steps",
                0,
                "timeout_seconds",
                60,
                "environment",
                Map.of(),
                "nodes",
                1,
                "devices_per_node",
                1));
        if (command != null) {
            spec.put("command", command);
            spec.put("parser", "jsonl");
        }
        return given().auth()
                .oauth2(OPERATE)
                .contentType(ContentType.JSON)
                .body(Map.of("name", name, "pools", pools, "spec", spec))
                .post("/admin/campaigns");
    }

    /** The campaign and its jobs are written in one transaction: no campaign row, no job and no JobRequested. */
    private void assertNothingWritten(String name) {
        assertThat(new Db(dataSource).count("SELECT count(*) FROM campaign WHERE name = ?", name))
                .isZero();
    }
}
