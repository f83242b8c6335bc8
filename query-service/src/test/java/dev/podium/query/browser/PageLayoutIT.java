package dev.podium.query.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.HeadlessChromium;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import dev.podium.query.support.StatsSeeds;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The pages a newcomer meets first, laid out by a real browser at a desktop's, a laptop's and a phone's width: a screenshot
 * of each under target/screenshots (layout-PAGE-WIDTH.png), and what a reader would notice measured in the page itself.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class PageLayoutIT {

    /** The first pages, by the name their screenshots take. */
    private static final Map<String, String> FIRST_PAGES = new LinkedHashMap<>();

    static {
        FIRST_PAGES.put("home", "/");
        FIRST_PAGES.put("local", "/local");
        FIRST_PAGES.put("compare", "/compare?benchmark=" + SeedData.MEASURED_BENCHMARK);
        FIRST_PAGES.put("leaderboard", "/leaderboard?benchmark=" + SeedData.MEASURED_BENCHMARK);
        FIRST_PAGES.put("run", "/runs/" + SeedData.RUN_A);
        FIRST_PAGES.put("fleet", "/fleet");
    }

    /** From this width on no page may scroll sideways; below it (a phone) wide tables may. */
    private static final int NO_SIDEWAYS_SCROLL_FROM = 1024;

    /**
     * The text of every shown badge whose text the browser laid out on more than one line: a rectangle of its text
     * starting below the middle of the one before is a new line.
     */
    private static final String BADGES_ON_SEVERAL_LINES = """
            const lines = badge => {
              const range = document.createRange();
              range.selectNodeContents(badge);
              const rects = Array.from(range.getClientRects()).filter(r => r.width > 0).sort((a, b) => a.top - b.top);
              let count = 0, last = null;
              for (const r of rects) {
                if (last === null || r.top >= last.top + last.height / 2) { count++; last = r; }
              }
              return count;
            };
            return Array.from(document.querySelectorAll('.badge'))
              .filter(b => b.getClientRects().length > 0 && lines(b) > 1)
              .map(b => b.textContent.trim());""";

    private static HeadlessChromium chromium;

    @TestHTTPResource("/")
    URL base;

    @BeforeAll
    static void startBrowser() throws Exception {
        chromium = HeadlessChromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {1400, 1024, 390})
    void everyFirstPageKeepsItsBadgesOnOneLineAndFitsTheWindow(int width) throws Exception {
        chromium.viewport(width, 900);
        List<String> wrapped = new ArrayList<>();
        List<String> sideways = new ArrayList<>();
        int badges = 0;
        for (Map.Entry<String, String> page : FIRST_PAGES.entrySet()) {
            chromium.open(base, page.getValue());
            chromium.snapshot("layout-" + page.getKey() + "-" + width);
            badges += chromium.browser().findElements(By.cssSelector(".badge")).size();
            script(BADGES_ON_SEVERAL_LINES).forEach(text -> wrapped.add(page.getKey() + ": " + text));
            List<Long> widths =
                    script("return [document.documentElement.scrollWidth," + " document.documentElement.clientWidth];");
            if (width >= NO_SIDEWAYS_SCROLL_FROM && widths.get(0) > widths.get(1)) {
                sideways.add(page.getKey() + ": " + widths.get(0) + " px of content in " + widths.get(1) + " px");
            }
        }
        assertThat(badges).as("badges on the first pages").isGreaterThan(10);
        assertThat(wrapped).as("badges broken over lines at %d px", width).isEmpty();
        assertThat(sideways).as("pages that scroll sideways at %d px", width).isEmpty();
    }

    @Test
    void theFirstPagesNameEveryDeviceAndUnitInWords() {
        chromium.viewport(1400, 900);
        chromium.open(base, FIRST_PAGES.get("leaderboard"));
        assertThat(texts("#leaderboard th")).contains("J per sample");
        chromium.open(base, FIRST_PAGES.get("compare"));
        assertThat(texts("th")).contains("J per sample");
        chromium.open(base, FIRST_PAGES.get("local"));
        assertThat(texts("#local-curves td:first-child")).containsOnly("AMD EPYC (CPU)");
        chromium.open(base, FIRST_PAGES.get("home"));
        assertThat(chromium.browser().findElement(By.tagName("main")).getText())
                .contains("AMD EPYC (CPU)")
                .doesNotContain(SeedData.LOCAL_DEVICE);
    }

    @Test
    void theHardwareUseColumnsPrintEachFigureBesideItsDenominatorOnOneLine() {
        chromium.viewport(1400, 900);
        chromium.open(
                base,
                "/leaderboard?benchmark=" + StatsSeeds.BENCHMARK + "&key="
                        + StatsSeeds.key(1).id());
        assertThat(texts("#leaderboard th")).contains("Share of measured matmul", "MFU");
        assertThat(texts("#leaderboard td.share-matmul"))
                .contains("50.0% ± 5.0% of 250.0 TFLOP/s measured", "— declared");
        assertThat(texts("#leaderboard td.mfu")).contains("40.0% ± 2.5% of 312.0 TFLOP/s peak");
        List<Long> wrapped =
                script("return [...document.querySelectorAll('td.share-matmul .denominator, td.mfu .denominator')]"
                        + ".filter(e => e.getClientRects().length > 1).map(e => 1)");
        assertThat(wrapped).as("denominators broken over lines").isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> script(String script) {
        return (List<T>) ((JavascriptExecutor) chromium.browser()).executeScript(script);
    }

    private static List<String> texts(String css) {
        return chromium.browser().findElements(By.cssSelector(css)).stream()
                .map(WebElement::getText)
                .toList();
    }
}
