package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** A device page shows the device's dense datasheet peaks with their sources, or why it has none. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class DevicePeaksIT {

    @Test
    void aDevicePageShowsItsDensePeaksWithTheirSources() {
        Document doc = Jsoup.parse(given().get("/devices/" + SeedData.H200)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.select("table.peaks tbody tr").eachText())
                .anySatisfy(row -> assertThat(row).startsWith("BF16 matrix 989").contains("NVIDIA H200 product page"))
                .anySatisfy(row -> assertThat(row).startsWith("memory bandwidth 4.8"));
        JsonPath json = given().get("/api/v1/devices/" + SeedData.H200)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getDouble("peaks.bandwidth.teraBytesPerSecond")).isEqualTo(4.8);
        assertThat(json.getList("peaks.flops.precision")).contains("BF16", "FP8");
        assertThat(json.getString("noPeak")).isNull();
    }

    @Test
    void aDeviceWithoutAPeakSaysWhy() {
        Document doc = Jsoup.parse(given().get("/devices/nvidia-h100")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.select("table.peaks")).isEmpty();
        assertThat(doc.selectFirst("#no-peak").text()).contains("NVIDIA H100 (variant unspecified)");
    }
}
