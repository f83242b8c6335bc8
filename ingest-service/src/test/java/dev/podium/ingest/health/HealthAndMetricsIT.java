package dev.podium.ingest.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

@QuarkusTest
class HealthAndMetricsIT {

    @Test
    void readinessReportsKafkaAndTheDatabase() {
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("kafka", "Database connections health check"))
                .body("checks.find { it.name == 'kafka' }.data.'event-consumer'", equalTo(true));
    }

    @Test
    void prometheusExposesTheIngestCounters() {
        given().get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString("podium_ingest_events_total{outcome=\"accepted\"}"))
                .body(containsString("podium_ingest_events_total{outcome=\"conflict\"}"))
                .body(containsString("podium_ingest_consumer_lag"))
                .body(containsString("podium_ingest_batch_seconds"));
    }

    /** The only member of its group owns every partition, and says so in the form the reliability suite reads. */
    @Test
    void theGaugeOfOwnedPartitionsCountsThemAll() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> given().get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString()
                        .lines()
                        .anyMatch("podium_ingest_consumer_partitions 12.0"::equals));
    }
}
