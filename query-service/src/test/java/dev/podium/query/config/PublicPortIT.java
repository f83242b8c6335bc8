package dev.podium.query.config;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import org.junit.jupiter.api.Test;

/**
 * The public port serves pages, the read API, its OpenAPI document and the health probes, and no internals: metrics
 * answer only on the management interface, which listens on this host alone.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class PublicPortIT {

    @TestHTTPResource("/")
    URL publicRoot;

    // relative to the management root, /q
    @TestHTTPResource(value = "/metrics", management = true)
    URL managementMetrics;

    @Test
    void metricsAreNotOnThePublicPort() {
        given().get("/q/metrics").then().statusCode(404);
        given().get("/q/metrics/").then().statusCode(404);
    }

    @Test
    void metricsAreOnTheManagementInterface() {
        assertThat(managementMetrics.getPort()).isNotEqualTo(publicRoot.getPort());
        assertThat(managementMetrics.getHost()).isIn("127.0.0.1", "localhost");
        assertThat(given().get(managementMetrics)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .contains("# TYPE jvm_");
    }

    @Test
    void healthProbesAndTheApiDocumentStayOnThePublicPort() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/health/live").then().statusCode(200);
        given().get("/api/v1/openapi").then().statusCode(200);
    }
}
