package dev.podium.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The fixed list of pages the benchmark measures, each a URL template whose parameters (benchmark, key, device, run,
 * filters, sort, baseline) are drawn at random over the loaded data: per request ({@link #pages}: nearly every request
 * is a new URL, which measures what a page costs to read and render), or once into a fixed list of URLs per page
 * ({@link #fixed}: what many people looking at the same pages of a running fleet ask, which measures the page cache
 * under live changes). Only public URLs: the harness knows nothing of query-service's internals.
 */
final class PageUrls {

    static final String TRIVIAL = "trivial /keys/{id}";

    private PageUrls() {}

    /** Page name to a supplier of its next URL; the trivial page first. {@code runs}: loaded runs to pick from. */
    static Map<String, Supplier<String>> pages(PageEvents events, long runs) {
        Map<String, Supplier<String>> pages = new LinkedHashMap<>();
        pages.put(TRIVIAL, () -> "/keys/" + PageEvents.key(key()).id());
        pages.put("leaderboard", () -> {
            int k = key();
            return "/leaderboard?benchmark=" + PageEvents.key(k).benchmark() + "&key="
                    + PageEvents.key(k).id();
        });
        pages.put("leaderboard+filters", () -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            return "/leaderboard?benchmark=" + PageEvents.benchmark(r.nextInt(PageEvents.BENCHMARKS))
                    + "&workers=" + pick(PageEvents.WORKERS) + "&batch="
                    + PageEvents.BATCHES[r.nextInt(PageEvents.BATCHES.length)]
                    + "&precision=" + pick(PageEvents.PRECISIONS) + "&software=" + pick(PageEvents.VERSIONS)
                    + "&source=measured&sort=" + pick(new String[] {"mean", "best", "n", "cv", "device"})
                    + "&dir=" + (r.nextBoolean() ? "asc" : "desc");
        });
        pages.put("comparison", () -> {
            int k = key();
            return "/compare?benchmark=" + PageEvents.key(k).benchmark() + "&group="
                    + PageEvents.key(k).id() + "&param=dataloader_num_workers&baseline=" + PageEvents.device(device());
        });
        pages.put(
                "run /runs/{id}",
                () -> "/runs/" + events.runId(ThreadLocalRandom.current().nextLong(Math.max(1, runs))));
        pages.put(
                "history",
                () -> "/history?key=" + PageEvents.key(key()).id() + "&metric=" + PageEvents.METRIC + "&device="
                        + PageEvents.device(device()));
        pages.put(
                "regressions",
                () -> ThreadLocalRandom.current().nextBoolean()
                        ? "/regressions"
                        : "/regressions?kind=all&benchmark="
                                + PageEvents.benchmark(
                                        ThreadLocalRandom.current().nextInt(PageEvents.BENCHMARKS)));
        return pages;
    }

    /**
     * The same pages, each drawing its URL from {@code perPage} URLs of {@code pages} drawn once: a fixed list, so that a
     * cached page can be asked for again.
     */
    static Map<String, Supplier<String>> fixed(Map<String, Supplier<String>> pages, int perPage) {
        Map<String, Supplier<String>> fixed = new LinkedHashMap<>();
        pages.forEach((name, urls) -> {
            List<String> list = Stream.generate(urls).limit(perPage).toList();
            fixed.put(name, () -> list.get(ThreadLocalRandom.current().nextInt(list.size())));
        });
        return fixed;
    }

    /** One example URL of each page, for the report. */
    static List<String> examples(Map<String, Supplier<String>> pages) {
        return pages.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue().get())
                .toList();
    }

    private static int key() {
        return ThreadLocalRandom.current().nextInt(PageEvents.KEYS);
    }

    private static int device() {
        return ThreadLocalRandom.current().nextInt(PageEvents.DEVICES);
    }

    private static String pick(String[] values) {
        return values[ThreadLocalRandom.current().nextInt(values.length)];
    }
}
