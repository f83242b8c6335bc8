package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class ComparisonPageIT {

    private static final Map<String, String[]> SEED_VERDICTS = Map.of(
            "gaudi2-vs-h100-workers0", new String[] {"1.79", "1.79x", "holds"},
            "gaudi2-vs-a100-workers0", new String[] {"2.64", "2.23x", "does not hold"},
            "gaudi2-vs-h100-workers2", new String[] {"1.28", "1.3x", "holds"},
            "gaudi2-vs-a100-workers2", new String[] {"2.23", "2.23x", "holds"},
            "headline-gaudi2-best-vs-a100-best", new String[] {"2.45", "2.5x", "holds"},
            "headline-gaudi2-best-vs-h100-best", new String[] {"1.41", "1.4x", "holds"},
            "h100-workers1-vs-workers0", new String[] {"1.72", "1.72x", "holds"},
            "h100-workers2-vs-workers1", new String[] {"1.04", "+3%", "holds"},
            "gaudi2-mediapipe-vs-best-default", new String[] {"1.10", "+10%", "holds"});

    private static Document page(String query) {
        String html = given().when()
                .get("/compare" + query)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        return Jsoup.parse(html);
    }

    @Test
    void everySeedClaimShowsItsComputedRatioClaimedValueRuleAndVerdictInTheHtml() {
        Document doc = page("?benchmark=bridgetower-finetune&source=published");

        List<Element> rows = doc.select("#claims tr.claim");
        assertThat(rows).hasSize(9);
        SEED_VERDICTS.forEach((id, expected) -> {
            Element row = doc.selectFirst("#claims tr.claim[data-claim=" + id + "]");
            assertThat(row).as(id).isNotNull();
            assertThat(row.selectFirst(".computed").text()).as(id).isEqualTo(expected[0] + "×");
            assertThat(row.selectFirst(".claimed").text()).as(id).isEqualTo(expected[1]);
            assertThat(row.selectFirst(".verdict").text()).as(id).isEqualTo(expected[2]);
            assertThat(row.selectFirst(".rule-text").text()).as(id).contains("rounded to");
        });
        assertThat(doc.selectFirst("tr.claim[data-claim=gaudi2-vs-a100-workers0] .rule-text")
                        .text())
                .startsWith("601.5 / 227.5 = 2.64396");
    }

    @Test
    void theMatrixShowsEachValueAndItsRatioToTheBaselineToTwoDecimals() {
        Document doc = page("?benchmark=bridgetower-finetune&source=published&baseline=" + PublishedSeeds.A100);

        assertThat(doc.select("#matrix thead th").eachText())
                .containsExactly(
                        "Device",
                        "Source",
                        "dataloader_num_workers = 0",
                        "dataloader_num_workers = 1",
                        "dataloader_num_workers = 2",
                        "dataloader_num_workers = 2 + dataloader=mediapipe");
        assertThat(cells(doc, "Intel Gaudi 2")).containsExactly("601.5 2.64×", "747.4 2.20×", "768.7 2.23×", "847.7");
        assertThat(cells(doc, "NVIDIA H100 (variant unspecified)"))
                .containsExactly("336.5 1.48×", "580.1 1.71×", "602.1 1.74×", "n/a");
        assertThat(cells(doc, "NVIDIA A100 80GB (variant unspecified)"))
                .containsExactly("227.5 1.00×", "339.7 1.00×", "345.4 1.00×", "n/a");
        assertThat(doc.select("#matrix tr.baseline").text()).contains("A100");
    }

    @Test
    void changingTheBaselineRecomputesTheRatios() {
        Document doc = page("?benchmark=bridgetower-finetune&source=published&baseline=" + PublishedSeeds.H100);

        assertThat(cells(doc, "Intel Gaudi 2")).containsExactly("601.5 1.79×", "747.4 1.29×", "768.7 1.28×", "847.7");
        assertThat(cells(doc, "NVIDIA A100 80GB (variant unspecified)"))
                .containsExactly("227.5 0.68×", "339.7 0.59×", "345.4 0.57×", "n/a");
        assertThat(doc.selectFirst("#baseline-label").text()).isEqualTo("NVIDIA H100 (variant unspecified)");
    }

    @Test
    void theJsonCarriesTheSameRatiosAndVerdicts() {
        JsonPath json = given().when()
                .get("/api/v1/comparison?benchmark=bridgetower-finetune&source=published&baseline="
                        + PublishedSeeds.A100)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .extract()
                .jsonPath();

        assertThat(json.getString("baseline")).isEqualTo(PublishedSeeds.A100);
        assertThat(json.getList("rows.find { it.deviceId == 'intel-gaudi2' }.cells.ratioText"))
                .containsExactly("2.64", "2.20", "2.23", null);
        assertThat(json.getList("rows.find { it.deviceId == 'nvidia-h100' }.cells.notAvailable"))
                .containsExactly(false, false, false, true);
        SEED_VERDICTS.forEach((id, expected) -> {
            Map<String, Object> claim = json.getMap("claims.find { it.claimId == '" + id + "' }");
            assertThat(claim)
                    .as(id)
                    .containsEntry("ratio2", expected[0])
                    .containsEntry("claimed", expected[1])
                    .containsEntry("verdict_text", expected[2]);
        });
    }

    @Test
    void theCsvExportHasOneValueAndOneRatioColumnPerParameterValue() {
        String csv = given().when()
                .get("/api/v1/comparison.csv?benchmark=bridgetower-finetune&source=published&baseline="
                        + PublishedSeeds.A100)
                .then()
                .statusCode(200)
                .contentType("text/csv")
                .extract()
                .asString();

        assertThat(csv.lines().findFirst().orElseThrow())
                .startsWith("device_id,device,source,baseline,dataloader_num_workers=0,");
        assertThat(csv).contains("intel-gaudi2,Intel Gaudi 2,published,false,601.5,2.64,747.4,2.20,768.7,2.23,847.7,");
        assertThat(csv)
                .contains(
                        "nvidia-h100,NVIDIA H100 (variant unspecified),published,false,336.5,1.48,580.1,1.71,602.1,1.74,n/a,");
    }

    @Test
    void measuredAndPublishedResultsUnderDifferentKeysAreNeverInOneMatrix() {
        Document doc = page("?benchmark=bridgetower-finetune&source=measured");

        assertThat(doc.select("#matrix tbody tr")).hasSize(1);
        assertThat(doc.select("#matrix tbody tr").text()).contains("H200");
        assertThat(doc.select("#matrix thead th").eachText())
                .contains("dataloader_num_workers = 0", "dataloader_num_workers = 2");
    }

    @Test
    void eachDevicesCurveIsNormalisedToItsOwnFirstValueSoTheLocalRunSitsBesideThePublishedOnes() {
        Document doc = page("?benchmark=bridgetower-finetune");

        List<String> h200 = curve(doc, "NVIDIA H200 SXM 141GB", "measured");
        List<String> gaudi = curve(doc, "Intel Gaudi 2", "published");
        assertThat(doc.select("#curves thead th").eachText())
                .contains("dataloader_num_workers = 0", "dataloader_num_workers = 1", "dataloader_num_workers = 2");
        assertThat(gaudi).containsExactly("1.00×", "1.24×", "1.28×");
        assertThat(h200).containsExactly("1.00×", "—", "1.64×");
    }

    @Test
    void curvesAreShownForTheChosenDevicesOnly() {
        Document doc = page("?benchmark=bridgetower-finetune&devices=intel-gaudi2");

        assertThat(doc.select("#curves tbody tr")).isNotEmpty();
        assertThat(doc.select("#curves tbody tr td:first-child").eachText()).containsOnly("Intel Gaudi 2");
        assertThat(curve(doc, "Intel Gaudi 2", "published")).containsExactly("1.00×", "1.24×", "1.28×");
    }

    private static List<String> curve(Document doc, String deviceLabel, String source) {
        Element row = doc.select("#curves tbody tr").stream()
                .filter(r -> r.child(0).text().equals(deviceLabel)
                        && r.child(1).text().equals(source))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no curve for " + deviceLabel));
        return row.select("td.num").eachText();
    }

    private static List<String> cells(Document doc, String deviceLabel) {
        Element row = doc.select("#matrix tbody tr").stream()
                .filter(r -> r.child(0).selectFirst("a").text().equals(deviceLabel))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + deviceLabel));
        return row.select("td.cell").eachText();
    }
}
