package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.published.PublishedClaim;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/** Every published ratio claim of every claim file (seeds.md sections 1 to 3) gets a verdict on its benchmark's page. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class PublishedClaimsIT {

    private static Document benchmarkPage(String benchmark) {
        return Jsoup.parse(given().when()
                .get("/benchmarks/" + benchmark)
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    @Test
    void everyRatioClaimOfEveryFileIsListedWithAVerdictOnItsBenchmarksPage() {
        Map<String, List<String>> claimsByBenchmark = PublishedSeeds.all().stream()
                .filter(PublishedClaim::isRatio)
                .filter(c -> c.key() != null)
                .collect(Collectors.groupingBy(
                        c -> c.key().benchmark(), Collectors.mapping(PublishedClaim::claimId, Collectors.toList())));
        assertThat(claimsByBenchmark).isNotEmpty();

        claimsByBenchmark.forEach((benchmark, ids) -> {
            Document doc = benchmarkPage(benchmark);
            assertThat(doc.select("#claims tr.claim").eachAttr("data-claim"))
                    .as(benchmark)
                    .containsAll(ids);
            assertThat(doc.select("#claims .verdict").eachText())
                    .as(benchmark)
                    .allMatch(v -> List.of("holds", "does not hold", "cannot be checked")
                            .contains(v));
        });
    }

    @Test
    void stableBelugaTwentyEightPercentFasterHolds() {
        Element row = benchmarkPage("stable-beluga-70b-inference")
                .selectFirst("tr.claim[data-claim=beluga-70b-infer-gaudi2-vs-a100]");

        assertThat(row.selectFirst(".computed").text()).isEqualTo("1.28×");
        assertThat(row.selectFirst(".claimed").text()).isEqualTo("+28%");
        assertThat(row.selectFirst(".verdict").text()).isEqualTo("holds");
    }

    @Test
    void aBoundWithoutFiguresCannotBeCheckedAndSaysSo() {
        Element row =
                benchmarkPage("sd3-2b-mmdit-train").selectFirst("tr.claim[data-claim=sd3-2b-train-gaudi2-vs-a100-256]");

        assertThat(row.selectFirst(".claimed").text()).isEqualTo("more than 3x");
        assertThat(row.selectFirst(".verdict").text()).isEqualTo("cannot be checked");
        assertThat(row.selectFirst(".computed").text()).isEqualTo("—");
    }

    @Test
    void publishedRangesStayRanges() {
        List<PublishedClaim> ranges = PublishedSeeds.all().stream()
                .filter(c -> c.value() instanceof dev.podium.events.published.ClaimValue.Range && c.key() != null)
                .toList();
        assertThat(ranges).isNotEmpty();
        PublishedClaim first = ranges.get(0);

        Element row =
                benchmarkPage(first.key().benchmark()).selectFirst("tr.claim[data-claim=" + first.claimId() + "]");

        assertThat(row.selectFirst(".claimed").text()).matches("[0-9.]+x–[0-9.]+x|\\+?[0-9.]+%–[0-9.]+%");
    }
}
