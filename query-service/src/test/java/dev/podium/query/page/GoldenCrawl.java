package dev.podium.query.page;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;

/**
 * The site's answers reachable from its entry points: each page's links within the site (pages, their JSON and CSV,
 * feeds) are followed breadth first, in the order the page gives them, to {@value #DEPTH} links deep and at most
 * {@value #MOST} answers, so that the same store always gives the same answers. Moments (instants and "… ago") are masked,
 * since they follow the clock, and so is the test server's port.
 */
final class GoldenCrawl {

    static final List<String> ENTRY_POINTS = List.of(
            "/",
            "/leaderboard",
            "/compare",
            "/local",
            "/fleet",
            "/regressions",
            "/regressions.atom",
            "/serving",
            "/api/v1/home",
            "/api/v1/local",
            "/api/v1/leaderboard",
            "/api/v1/leaderboard.csv",
            "/api/v1/comparison",
            "/api/v1/comparison.csv",
            "/api/v1/fleet");

    static final int DEPTH = 2;
    static final int MOST = 400;

    private static final Pattern INSTANT =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?");
    /** Absolute links (feeds) name the port the test server took. */
    private static final Pattern ORIGIN = Pattern.compile("http://localhost:\\d+");

    private static final Pattern AGO = Pattern.compile(
            "\\b\\d+(\\.\\d+)? ?(s|ms|min|h|d|seconds?|minutes?|hours?|days?|weeks?|months?|years?) ago\\b");
    /** What is not followed: static files, the health and metrics endpoints. */
    private static final Pattern NOT_FOLLOWED = Pattern.compile("^/(q/|static/|css/|js/|img/|favicon).*");

    /** One answer: what was asked, and what it said as kept in its file. */
    record Answer(String path, String recorded) {

        String fileName() {
            String readable = path.replaceAll("[^A-Za-z0-9._-]", "_");
            return readable.substring(0, Math.min(readable.length(), 80)) + "-" + hash(path) + ".txt";
        }
    }

    /** What a GET answered. */
    record Fetched(int status, String contentType, String body) {}

    private final Function<String, Fetched> get;

    GoldenCrawl(Function<String, Fetched> get) {
        this.get = get;
    }

    List<Answer> crawl() {
        Set<String> seen = new LinkedHashSet<>(ENTRY_POINTS);
        Deque<String[]> queue = new ArrayDeque<>();
        ENTRY_POINTS.forEach(p -> queue.add(new String[] {p, "0"}));
        List<Answer> answers = new ArrayList<>();
        while (!queue.isEmpty() && answers.size() < MOST) {
            String[] next = queue.poll();
            String path = next[0];
            int depth = Integer.parseInt(next[1]);
            Fetched f = get.apply(path);
            answers.add(new Answer(path, recorded(path, f)));
            if (depth < DEPTH && f.contentType() != null && f.contentType().startsWith("text/html")) {
                for (String link : links(f.body())) {
                    if (seen.add(link)) {
                        queue.add(new String[] {link, Integer.toString(depth + 1)});
                    }
                }
            }
        }
        return answers;
    }

    private static String recorded(String path, Fetched f) {
        return "GET " + path + "\n" + f.status() + " " + f.contentType() + "\n\n" + masked(f.body());
    }

    static String masked(String body) {
        String out = INSTANT.matcher(body).replaceAll("<instant>");
        out = ORIGIN.matcher(out).replaceAll("http://localhost:<port>");
        return AGO.matcher(out).replaceAll("<ago>");
    }

    /** The page's links within the site, in its order, without fragments. */
    private static List<String> links(String html) {
        List<String> out = new ArrayList<>();
        for (var a : Jsoup.parse(html).select("a[href], link[href]")) {
            String href = a.attr("href");
            int hash = href.indexOf('#');
            href = hash < 0 ? href : href.substring(0, hash);
            if (href.startsWith("/")
                    && !href.startsWith("//")
                    && !NOT_FOLLOWED.matcher(href).matches()) {
                out.add(href);
            }
        }
        return out;
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
