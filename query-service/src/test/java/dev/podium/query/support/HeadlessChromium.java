package dev.podium.query.support;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's headless Chromium driven through its chromedriver, as every browser test here runs it. */
public final class HeadlessChromium implements AutoCloseable {

    /** How long a page may take to load, or to show what a test waits for, on a loaded machine. */
    public static final Duration WAIT = Duration.ofSeconds(60);

    /** Below this width the browser lays pages out as a phone does, honouring the layout's viewport meta tag. */
    public static final int PHONE_BELOW = 600;

    private final ChromeDriverService service;
    private final ChromeDriver browser;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver browser) {
        this.service = service;
        this.browser = browser;
    }

    public static HeadlessChromium start() throws IOException {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .build();
        service.start();
        ChromeOptions options = new ChromeOptions()
                .setBinary("/usr/bin/chromium")
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--no-first-run",
                        "--window-size=1400,1000");
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(WAIT);
        return new HeadlessChromium(service, browser);
    }

    public WebDriver browser() {
        return browser;
    }

    /** Lays pages out in a viewport this many CSS pixels wide, as a phone below {@link #PHONE_BELOW}. */
    public void viewport(int width, int height) {
        browser.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < PHONE_BELOW));
    }

    /** Opens {@code pathAndQuery} under {@code base} and waits until it is loaded. */
    public void open(URL base, String pathAndQuery) {
        String url = base.toString().replaceAll("/$", "") + pathAndQuery;
        browser.get(url);
        waitForUrl(url);
    }

    /** Waits for the navigation a click started: the new URL, loaded. */
    public void waitForUrl(String fragment) {
        Awaitility.await()
                .atMost(WAIT)
                .until(() -> browser.getCurrentUrl().contains(fragment)
                        && "complete"
                                .equals(((JavascriptExecutor) browser).executeScript("return document.readyState")));
    }

    /** Keeps a picture of the viewport under target/screenshots as {@code name}.png, for a person to look at. */
    public Path snapshot(String name) throws IOException {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        browser.quit();
        service.stop();
    }
}
