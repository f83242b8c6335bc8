package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class LeaderboardPageIT {

    private static Document page(String query) {
        return Jsoup.parse(given().when()
                .get("/leaderboard" + query)
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    @Test
    void aPublishedKeyRanksTheDevicesBestFirstWithBadges() {
        String key = PublishedSeeds.keyOf("gaudi2-workers0");
        Document doc = page("?benchmark=bridgetower-finetune&key=" + key);

        assertThat(doc.select("#leaderboard tbody tr td:nth-child(2)").eachText())
                .containsExactly(
                        "Intel Gaudi 2", "NVIDIA H100 (variant unspecified)", "NVIDIA A100 80GB (variant unspecified)");
        assertThat(doc.select("#leaderboard td.mean").eachText()).containsExactly("601.5", "336.5", "227.5");
        assertThat(doc.select("#leaderboard .badge-published")).hasSize(3);
        assertThat(doc.selectFirst(".key-label").text()).contains("workers 0").contains("8 accelerators");
        assertThat(doc.selectFirst(".key-label a").attr("href"))
                .as("the exact key one click away")
                .isEqualTo("/keys/" + key);
        assertThat(doc.text())
                .as("no canonical key text on the page")
                .doesNotContain("total_accelerators=")
                .doesNotContain("dataloader_num_workers=");
    }

    @Test
    void sortingByAColumnFlipsTheOrder() {
        String key = PublishedSeeds.keyOf("gaudi2-workers1");
        Document doc = page("?benchmark=bridgetower-finetune&key=" + key + "&sort=mean&dir=asc");

        assertThat(doc.select("#leaderboard td.mean").eachText()).containsExactly("339.7", "580.1", "747.4");
        assertThat(doc.selectFirst("#leaderboard th a[href*=sort=mean]").attr("href"))
                .contains("dir=desc");
    }

    @Test
    void theMeasuredSourceFilterShowsTheMeasuredKeyWithItsStatistics() {
        Document doc = page("?benchmark=bridgetower-finetune&source=measured&workers=0");

        assertThat(doc.select("#leaderboard tbody tr")).hasSize(1);
        assertThat(doc.select("#leaderboard tbody tr").text())
                .contains("H200")
                .contains("measured")
                .contains("± ");
        assertThat(doc.select("#leaderboard td.mean").text()).isEqualTo("31.71");
        assertThat(doc.selectFirst(".key-label").text())
                .isEqualTo(SeedData.measuredKey("0").label());
        assertThat(doc.selectFirst(".key-label a").attr("href"))
                .isEqualTo("/keys/" + SeedData.measuredKey("0").id());
    }

    @Test
    void theSoftwareVersionFilterRecomputesFromTheRunsWithThatVersion() {
        Document doc = page("?benchmark=bridgetower-finetune&source=measured&workers=0&software=2.4.0");

        assertThat(doc.select("#leaderboard tbody tr")).hasSize(1);
        assertThat(doc.select("#leaderboard td.mean").text()).isEqualTo("30.57");
        assertThat(doc.select("select[name=software] option").eachText()).contains("2.4.0", "2.5.1");
    }

    @Test
    void resultsUnderDifferentKeysAreNeverRankedTogether() {
        JsonPath json = given().when()
                .get("/api/v1/leaderboard?benchmark=bridgetower-finetune&workers=0")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        String key = json.getString("query.key");
        assertThat(json.getList("entries.deviceId")).isNotEmpty();
        assertThat(json.getList("keys.keyId")).hasSize(2).contains(key);
        assertThat(json.getList("entries.source", String.class))
                .containsOnly(json.getList("entries.source", String.class).get(0));
    }

    @Test
    void theCsvExportListsTheRankedRows() {
        String key = PublishedSeeds.keyOf("gaudi2-workers2");
        String csv = given().when()
                .get("/api/v1/leaderboard.csv?benchmark=bridgetower-finetune&key=" + key)
                .then()
                .statusCode(200)
                .header("Content-Disposition", org.hamcrest.Matchers.containsString("leaderboard.csv"))
                .extract()
                .asString();

        assertThat(csv.lines().toList()).hasSize(4);
        assertThat(csv.lines().skip(1).findFirst().orElseThrow())
                .startsWith("1,intel-gaudi2,Intel Gaudi 2,published,1,1,768.7,");
    }

    @Test
    void theOpenApiDocumentDescribesTheReadApi() {
        String doc = given().when()
                .get("/api/v1/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();

        assertThat(doc)
                .contains("/api/v1/leaderboard")
                .contains("/api/v1/comparison.csv")
                .contains("/api/v1/runs/{id}")
                .contains("/api/v1/fleet");
    }
}
