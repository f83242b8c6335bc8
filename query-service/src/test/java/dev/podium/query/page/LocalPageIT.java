package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class LocalPageIT {

    private static Document page(String query) {
        return Jsoup.parse(given().when()
                .get("/local" + query)
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    private static List<String> normalised(Document doc, String table, String device, String setting) {
        Element row = doc.select("#" + table + " tr.curve").stream()
                .filter(r -> r.attr("data-device").equals(device)
                        && r.child(2).text().equals(setting))
                .findFirst()
                .orElseThrow();
        return row.select("td.point").stream()
                .map(td -> td.select(".normalised").text())
                .toList();
    }

    @Test
    void theLocalSweepIsNormalisedToWorkersZeroWithItsNAndCi() {
        Document doc = page("");

        assertThat(doc.select("#local-curves thead th").eachText())
                .containsSequence(
                        "dataloader_num_workers = 0", "dataloader_num_workers = 1", "dataloader_num_workers = 2");
        assertThat(normalised(doc, "local-curves", SeedData.LOCAL_DEVICE, ""))
                .containsExactly("1.00×", "0.98×", "0.81×");
        Element first = doc.selectFirst("#local-curves tr.curve[data-device=" + SeedData.LOCAL_DEVICE + "] td.point");
        assertThat(first.text()).isEqualTo("168.0 ± 8.00 n=3 1.00×");
    }

    @Test
    void aLocalRunThatFailedAValidityCheckStillShowsMarked() {
        Document doc = page("");

        assertThat(normalised(doc, "local-curves", SeedData.LOCAL_DEVICE, "note=" + SeedData.XSS_IMG))
                .containsExactly("1.00×", "1.20×", "");
        assertThat(doc.select("#local-curves tr.curve").text()).contains("1 of its runs failed a validity check");
    }

    @Test
    void eachPublishedDeviceIsNormalisedToItsOwnWorkersZeroAndMediapipeStaysSeparate() {
        Document doc = page("");

        assertThat(normalised(doc, "published-curves", "intel-gaudi2", "dataloader=default"))
                .containsExactly("1.00×", "1.24×", "1.28×");
        assertThat(normalised(doc, "published-curves", "nvidia-h100", "dataloader=default"))
                .containsExactly("1.00×", "1.72×", "1.79×");
        assertThat(normalised(doc, "published-curves", "nvidia-a100-80gb", "dataloader=default"))
                .containsExactly("1.00×", "1.49×", "1.52×");
        Element mediapipe = doc.select("#published-curves tr.curve").stream()
                .filter(r -> r.child(2).text().equals("dataloader=mediapipe"))
                .findFirst()
                .orElseThrow();
        assertThat(mediapipe.select("td.point").eachText()).containsExactly("—", "—", "847.7");
        assertThat(mediapipe.selectFirst("td.note").text())
                .contains("kept separate")
                .contains("not normalised");
    }

    @Test
    void theChartHasOneLabelledLineForEveryNormalisedCurve() {
        Document doc = page("");

        Element svg = doc.selectFirst("figure.chart svg");
        assertThat(svg.select("polyline")).hasSize(5);
        assertThat(svg.select("text.legend").eachText())
                .contains(
                        "AMD EPYC (CPU) · measured",
                        "Intel Gaudi 2 · published · dataloader=default",
                        "NVIDIA H100 (variant unspecified) · published · dataloader=default",
                        "NVIDIA A100 80GB (variant unspecified) · published · dataloader=default")
                .noneMatch(t -> t.contains("mediapipe"));
        assertThat(svg.select("text.tick").eachText()).contains("0", "1", "2", "0.00", "2.00");
        assertThat(doc.selectFirst("figure.chart figcaption").text())
                .contains("÷ its own value at dataloader_num_workers=0");
        // Every curve starts at 1.00 at workers=0: the same first point for all of them.
        assertThat(svg.select("polyline").stream()
                        .map(p -> p.attr("points").split(" ")[0])
                        .distinct())
                .hasSize(1);
    }

    @Test
    void thePageExplainsWhyTheLocalRunIsNotRankedAndLinksToRunsAndSources() {
        Document doc = page("");

        assertThat(doc.selectFirst("#why").text()).contains("never ranks").contains("8 accelerators");
        assertThat(doc.select("a[href=/runs/" + SeedData.RUN_LOCAL + "]")).hasSize(1);
        assertThat(doc.select("#sources a").eachAttr("href"))
                .contains(
                        "/compare?benchmark=bridgetower-finetune&metric=train_samples_per_second&param=dataloader_num_workers&source=published",
                        "/api/v1/local?benchmark=podium-reference&published=bridgetower-finetune&param=dataloader_num_workers&metric=train_samples_per_second");
        assertThat(doc.select("#sources li").eachText()).anyMatch(t -> t.contains("hf-habana-bridgetower"));
    }

    @Test
    void theJsonCarriesTheSameCurvesAndTheDefaults() {
        JsonPath json = given().when()
                .get("/api/v1/local")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(json.getString("query.benchmark")).isEqualTo("podium-reference");
        assertThat(json.getString("query.published")).isEqualTo("bridgetower-finetune");
        assertThat(json.getString("query.param")).isEqualTo("dataloader_num_workers");
        assertThat(json.getString("query.metric")).isEqualTo("train_samples_per_second");
        assertThat(json.getList("values", String.class)).containsExactly("0", "1", "2");
        assertThat(json.getList("local.find { it.setting == '' }.points.normalisedText", String.class))
                .containsExactly("1.00", "0.98", "0.81");
        assertThat(json.getList("local.find { it.setting == '' }.points.n", Integer.class))
                .containsExactly(3, 3, 3);
        assertThat(json.getList("published.find { it.deviceId == 'nvidia-h100' }.points.normalisedText", String.class))
                .containsExactly("1.00", "1.72", "1.79");
        assertThat(json.getList("published.findAll { it.note == '' }.deviceId", String.class))
                .containsExactlyInAnyOrder("intel-gaudi2", "nvidia-h100", "nvidia-a100-80gb");
    }

    @Test
    void withoutALocalRunThePageSaysSoAndStillShowsThePublishedCurves() {
        Document doc = page("?benchmark=not-run-yet");

        assertThat(doc.selectFirst("#no-local").text()).contains("No completed local run of not-run-yet");
        assertThat(doc.select("#local-curves")).isEmpty();
        assertThat(doc.select("#published-curves tr.curve")).hasSize(4);
        assertThat(doc.select("figure.chart svg polyline")).hasSize(3);
        JsonPath json = given().when()
                .get("/api/v1/local?benchmark=not-run-yet")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("local")).isEmpty();
        assertThat(json.getList("runs")).isEmpty();
    }

    @Test
    void aHostileKeyParameterRendersAsText() {
        Document doc = page("");

        assertThat(doc.select("img")).isEmpty();
        assertThat(doc.select("#local-curves td").eachText()).contains("note=" + SeedData.XSS_IMG);
        assertThat(doc.select("figure.chart text.legend").eachText())
                .contains("AMD EPYC (CPU) · measured · note=" + SeedData.XSS_IMG);
        Document hostile = Jsoup.parse(given().queryParam("benchmark", SeedData.XSS_SCRIPT)
                .when()
                .get("/local")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(hostile.select("script")).isEmpty();
        assertThat(hostile.selectFirst("h1 + form input[name=benchmark]").attr("value"))
                .isEqualTo(SeedData.XSS_SCRIPT);
    }
}
