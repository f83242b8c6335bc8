package dev.podium.query.support;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's headless Chromium driven through its chromedriver, as every browser test here runs it. */
public final class HeadlessChromium implements AutoCloseable {

    /** How long a page may take to load, or to show what a test waits for, on a loaded machine. */
    public static final Duration WAIT = Duration.ofSeconds(60);

    private final ChromeDriverService service;
    private final WebDriver browser;

    private HeadlessChromium(ChromeDriverService service, WebDriver browser) {
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
        WebDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(WAIT);
        return new HeadlessChromium(service, browser);
    }

    public WebDriver browser() {
        return browser;
    }

    @Override
    public void close() {
        browser.quit();
        service.stop();
    }
}
