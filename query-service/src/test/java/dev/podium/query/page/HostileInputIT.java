package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class HostileInputIT {

    private static final String HOSTILE_RUN = "/runs/" + SeedData.RUN_HOSTILE;

    @Test
    void agentStringsOnTheRunPageRenderAsTextAndNeverAsMarkup() {
        String html =
                given().when().get(HOSTILE_RUN).then().statusCode(200).extract().asString();
        Document doc = Jsoup.parse(html);

        assertThat(doc.select("script")).isEmpty();
        assertThat(doc.select("img")).isEmpty();
        assertThat(doc.select("[onerror]")).isEmpty();
        assertThat(html).contains("&lt;script&gt;document.title=").contains("&lt;img src=x onerror=");
        assertThat(doc.text()).contains(SeedData.XSS_SCRIPT).contains(SeedData.XSS_IMG);
        assertThat(doc.select("a[href^=javascript]")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/fleet", "/leaderboard", "/compare"})
    void noPageCarriesAnAgentsMarkup(String path) {
        boolean withBenchmark = path.equals("/leaderboard") || path.equals("/compare");
        String html = (withBenchmark ? given().queryParam("benchmark", SeedData.HOSTILE_BENCHMARK) : given())
                .when()
                .get(path)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Document doc = Jsoup.parse(html);

        assertThat(doc.select("script, img, [onerror]")).isEmpty();
        assertThat(doc.text()).contains("pwned");
    }

    @Test
    void theComparisonMatrixEscapesAgentStringsInItsKeyLabels() {
        String html = given().queryParam("benchmark", SeedData.HOSTILE_BENCHMARK)
                .when()
                .get("/compare")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        org.jsoup.nodes.Element matrix = Jsoup.parse(html).getElementById("matrix");

        assertThat(matrix).isNotNull();
        assertThat(matrix.select("script, img, [onerror]")).isEmpty();
        assertThat(matrix.select("thead th[title]").eachAttr("title"))
                .isNotEmpty()
                .allMatch(t -> t.contains("<img src") && t.contains("<script>document.title"));
        assertThat(html).contains("zz-&lt;img");
    }

    @Test
    void theFleetPageShowsTheHostileAgentAsTextAndOffline() throws SQLException {
        heartbeat("agent-h200-a");
        Document doc = Jsoup.parse(
                given().when().get("/fleet").then().statusCode(200).extract().asString());

        assertThat(doc.select("#fleet td.agent").eachText()).contains(SeedData.HOSTILE_AGENT, "agent-h200-a");
        assertThat(doc.select("#fleet tr").stream()
                        .filter(r -> r.text().contains("agent-h200-a"))
                        .findFirst()
                        .orElseThrow()
                        .text())
                .contains("online");
        assertThat(doc.select("#fleet tr").stream()
                        .filter(r -> r.text().contains(SeedData.HOSTILE_AGENT))
                        .findFirst()
                        .orElseThrow()
                        .text())
                .contains("offline");
    }

    /**
     * A live agent's heartbeat is seconds old when its page is read; the seeded one is as old as the database, which on a
     * loaded machine may be past the online window by the time this test runs, so it beats again first.
     */
    private static void heartbeat(String agentId) throws SQLException {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps =
                        c.prepareStatement("UPDATE agent_status SET last_heartbeat_at = now() WHERE agent_id = ?")) {
            ps.setString(1, agentId);
            assertThat(ps.executeUpdate()).as("agents seeded as %s", agentId).isEqualTo(1);
        }
    }

    @Test
    void linksBuiltFromAgentStringsArePercentEncodedPathsOfOurOwn() {
        Document doc = Jsoup.parse(
                given().when().get("/").then().statusCode(200).extract().asString());

        assertThat(doc.select("a[href]").eachAttr("href")).allMatch(h -> h.startsWith("/"));
        assertThat(doc.select("a[href^=/benchmarks/zz]").attr("href"))
                .doesNotContain("<")
                .contains("%3Cimg");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/leaderboard",
                "/compare",
                "/fleet",
                "/api/v1/fleet",
                "/api/v1/openapi",
                "/css/podium.css",
                "/runs/not-a-uuid"
            })
    void everyResponseCarriesTheContentSecurityPolicy(String path) {
        Response r = given().when().get(path);

        assertThat(r.header("Content-Security-Policy"))
                .contains("default-src 'self'")
                .contains("script-src 'self'")
                .contains("style-src 'self'")
                .doesNotContain("unsafe-inline");
        assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/fleet",
                "/leaderboard?benchmark=bridgetower-finetune",
                "/compare?benchmark=bridgetower-finetune",
                "/regressions"
            })
    void pagesAreAsciiWithEveryOtherCharacterAsAReference(String path) {
        String html = asciiPage(path);

        assertThat(Jsoup.parse(html).text()).contains("Podium \u00b7 open benchmarks");
    }

    @Test
    void anAgentsTextOutsideAsciiRendersAsItWasSent() {
        String html = asciiPage(HOSTILE_RUN);

        assertThat(html).contains("Gaudi&#178; &#8212; &#8220;fast&#8221; &#128640; &#252;n&#239;code");
        assertThat(Jsoup.parse(html).text()).contains(SeedData.UNICODE);
    }

    /** The page at {@code path}, after checking that every byte of it is ASCII and that it says it is UTF-8. */
    private static String asciiPage(String path) {
        Response r = given().when().get(path);
        byte[] body = r.then().statusCode(200).extract().asByteArray();

        assertThat(r.contentType()).isEqualToIgnoringCase("text/html;charset=UTF-8");
        for (int i = 0; i < body.length; i++) {
            assertThat(body[i] & 0xff).as("byte %d of %s", i, path).isLessThan(0x80);
        }
        return new String(body, java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void theStylesheetComesFromTheWebModule() {
        given().when().get("/css/podium.css").then().statusCode(200).contentType("text/css");
    }

    @Test
    void csvCellsThatASpreadsheetWouldRunAsFormulasAreNeutralised() {
        String csv = given().queryParam("benchmark", SeedData.HOSTILE_BENCHMARK)
                .when()
                .get("/api/v1/leaderboard.csv")
                .then()
                .statusCode(200)
                .extract()
                .asString();

        assertThat(csv).contains("<script>");
        assertThat(csv.lines().skip(1)).allSatisfy(line -> assertThat(line).doesNotContain(",="));
    }
}
