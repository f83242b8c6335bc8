package dev.podium.query.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.HeadlessChromium;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/** The main flows in a real browser (Debian's headless Chromium), and proof that no agent string runs as script. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class BrowserFlowsIT {

    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @TestHTTPResource("/")
    URL base;

    @BeforeAll
    static void startBrowser() throws Exception {
        chromium = HeadlessChromium.start();
        browser = chromium.browser();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    private void open(String pathAndQuery) {
        chromium.open(base, pathAndQuery);
    }

    /** The text of the element with this id, once the page shows it. */
    private String textOf(String id) {
        org.awaitility.Awaitility.await()
                .atMost(HeadlessChromium.WAIT)
                .until(() -> !browser.findElements(By.id(id)).isEmpty());
        return browser.findElement(By.id(id)).getText();
    }

    private void snapshot(String name) throws java.io.IOException {
        chromium.snapshot(name);
    }

    private void waitForUrl(String fragment) {
        chromium.waitForUrl(fragment);
    }

    private void choose(String select, String value) {
        browser.findElement(By.cssSelector(select + " option[value='" + value + "']"))
                .click();
    }

    private List<String> texts(String css) {
        return browser.findElements(By.cssSelector(css)).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void openALeaderboardAndFilterIt() throws Exception {
        open("/leaderboard?benchmark=bridgetower-finetune");
        assertThat(browser.findElement(By.id("leaderboard")).isDisplayed()).isTrue();

        choose("select[name=workers]", "1");
        choose("select[name=source]", "published");
        browser.findElement(By.id("apply-filters")).click();

        waitForUrl("workers=1");
        assertThat(browser.getCurrentUrl()).contains("workers=1").contains("source=published");
        assertThat(texts("#leaderboard td.mean")).containsExactly("747.4", "580.1", "339.7");

        browser.findElement(By.cssSelector("#leaderboard th a[href*='sort=mean']"))
                .click();
        waitForUrl("dir=asc");
        assertThat(browser.getCurrentUrl())
                .contains("sort=mean")
                .contains("dir=asc")
                .contains("workers=1");
        assertThat(texts("#leaderboard td.mean")).containsExactly("339.7", "580.1", "747.4");
        snapshot("leaderboard");
    }

    @Test
    void openAComparisonAndChangeTheBaseline() throws Exception {
        open("/compare?benchmark=bridgetower-finetune&source=published");
        assertThat(textOf("baseline-label")).isEqualTo("NVIDIA A100 80GB (variant unspecified)");
        assertThat(gaudiRatios()).containsExactly("2.64×", "2.20×", "2.23×");

        WebElement h100Row = browser.findElements(By.cssSelector("#matrix tbody tr")).stream()
                .filter(r -> r.getText().startsWith("NVIDIA H100"))
                .findFirst()
                .orElseThrow();
        h100Row.findElement(By.cssSelector("a.make-baseline")).click();

        waitForUrl("baseline=nvidia-h100");
        assertThat(textOf("baseline-label")).isEqualTo("NVIDIA H100 (variant unspecified)");
        assertThat(gaudiRatios()).containsExactly("1.79×", "1.29×", "1.28×");
        snapshot("comparison");

        choose("#baseline", "intel-gaudi2");
        browser.findElement(By.id("apply-comparison")).click();
        waitForUrl("baseline=intel-gaudi2");
        assertThat(gaudiRatios()).containsExactly("1.00×", "1.00×", "1.00×", "1.00×");
        assertThat(browser.findElement(By.cssSelector("tr.claim[data-claim='gaudi2-vs-a100-workers0'] .verdict"))
                        .getText())
                .isEqualTo("does not hold");
    }

    private List<String> gaudiRatios() {
        WebElement row = browser.findElements(By.cssSelector("#matrix tbody tr")).stream()
                .filter(r -> r.getText().startsWith("Intel Gaudi 2"))
                .findFirst()
                .orElseThrow();
        return row.findElements(By.cssSelector(".ratio")).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void openARunFromTheHomePage() throws Exception {
        open("/");
        snapshot("home");
        browser.findElement(By.linkText(SeedData.RUN_A.toString())).click();

        waitForUrl("/runs/" + SeedData.RUN_A);
        assertThat(browser.findElements(By.cssSelector("figure.chart svg polyline")))
                .hasSize(5);
        assertThat(texts("#events tbody td:nth-child(2)"))
                .containsExactly("RunStarted v1", "MetricSampled v1", "RunCompleted v1");
        snapshot("run");
    }

    @Test
    void theLocalPageDrawsEveryNormalisedCurveOnOneChart() throws Exception {
        open("/local");
        snapshot("local");

        List<WebElement> lines = browser.findElements(By.cssSelector("figure.chart svg polyline"));
        assertThat(lines).hasSize(5);
        for (WebElement line : lines) {
            assertThat(line.getSize().getWidth())
                    .as("a drawn line spans the workers axis")
                    .isGreaterThan(200);
        }
        assertThat(texts("figure.chart svg text.legend"))
                .contains("AMD EPYC (CPU) · measured", "Intel Gaudi 2 · published · dataloader=default");
        assertThat(texts("figure.chart svg text.tick")).contains("0", "1", "2");
        assertThat(textOf("why")).contains("never ranks");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/fleet",
                "/runs/" + "0193a0c0-0000-7000-8000-0000000000ff",
                "/leaderboard?benchmark=",
                "/compare?benchmark=",
                "/local"
            })
    void noScriptFromAnAgentRuns(String path) throws Exception {
        String target = path.endsWith("=")
                ? path + URLEncoder.encode(SeedData.HOSTILE_BENCHMARK, StandardCharsets.UTF_8)
                : path;
        open(target);

        assertThat(browser.getPageSource()).contains("pwned");
        assertThat(browser.getTitle()).isNotEqualTo("pwned").endsWith("· Podium");
        assertThat(((JavascriptExecutor) browser).executeScript("return typeof window.pwned"))
                .isEqualTo("undefined");
        assertThat(browser.findElements(By.tagName("img"))).isEmpty();
        assertThat(browser.findElements(By.tagName("script")))
                .as("our pages carry no script at all")
                .isEmpty();
        if (path.equals("/fleet")) {
            snapshot("fleet");
        }
    }

    @Test
    void followARegressionToItsHistoryAndShowFailingRunsOnALeaderboard() throws Exception {
        open("/regressions");
        assertThat(textOf("regressions")).contains("regression").contains("sim-trust");
        browser.findElement(By.cssSelector("#regressions a.history")).click();
        waitForUrl("/history?");
        assertThat(textOf("steps")).contains("regression").contains("2.4.0 → 2.5.1");
        assertThat(texts("#points tr.step td:first-child")).containsExactly("20");
        snapshot("history");

        open("/leaderboard?benchmark=sim-trust&key="
                + dev.podium.query.support.StatsSeeds.key(1).id());
        assertThat(textOf("validity-note")).contains("left out");
        browser.findElement(By.id("toggle-failing")).click();
        waitForUrl("include=failing");
        assertThat(texts("#leaderboard td.failing")).contains("1 failing 1 run at 250.0 W of its 400.0 W default");
        browser.findElement(By.cssSelector("#leaderboard th a[href*='sort=mean']"))
                .click();
        waitForUrl("sort=mean");
        assertThat(browser.getCurrentUrl()).contains("include=failing");

        open("/compare?benchmark=sim-trust&source=measured");
        assertThat(textOf("matrix")).contains("1.93×").contains("1.89–1.96");
        assertThat(browser.findElement(By.cssSelector("#matrix span.ci")).getAttribute("title"))
                .isEqualTo("better than baseline");
        assertThat(texts("#matrix span.baseline-power-cap"))
                .contains("baseline's power limit lowered: 1 run at 250.0 W of its 400.0 W default");
        snapshot("matrix");
    }
}
