package dev.podium.query.view;

import java.util.function.UnaryOperator;

/**
 * The whole state of a leaderboard page, all in its query string: benchmark, comparison key, metric, the filters
 * (scenario, precision, per-device batch size, dataloader workers, framework version, source), the sort, and the margin
 * in percent its scaling column is judged at (null: the benchmark's or the default, {@link Margins}).
 */
public record LeaderboardQuery(
        String benchmark,
        String key,
        String metric,
        String scenario,
        String precision,
        String batch,
        String workers,
        String software,
        String source,
        String sort,
        String dir,
        String include,
        String margin) {

    /** {@code include=failing} also counts runs that failed a validity check; by default leaderboards leave them out. */
    public static final String INCLUDE_FAILING = "failing";

    public LeaderboardQuery(
            String benchmark,
            String key,
            String metric,
            String scenario,
            String precision,
            String batch,
            String workers,
            String software,
            String source,
            String sort,
            String dir) {
        this(benchmark, key, metric, scenario, precision, batch, workers, software, source, sort, dir, null, null);
    }

    public boolean includeFailing() {
        return INCLUDE_FAILING.equals(include);
    }

    /** This query with failing runs counted or not. */
    public LeaderboardQuery withInclude(boolean failing) {
        return new LeaderboardQuery(
                benchmark,
                key,
                metric,
                scenario,
                precision,
                batch,
                workers,
                software,
                source,
                sort,
                dir,
                failing ? INCLUDE_FAILING : null,
                margin);
    }

    public Links link() {
        return Links.to("/leaderboard")
                .param("benchmark", benchmark)
                .param("key", key)
                .param("metric", metric)
                .param("scenario", scenario)
                .param("precision", precision)
                .param("batch", batch)
                .param("workers", workers)
                .param("software", software)
                .param("source", source)
                .param("sort", sort)
                .param("dir", dir)
                .param("include", include)
                .param("margin", margin);
    }

    /**
     * Links to this leaderboard under another key, by key id, with failing runs left out (as the key list offers them): what
     * surrounds the key is encoded once, not once per key.
     */
    public UnaryOperator<String> keyLinks() {
        String head = Links.to("/leaderboard").param("benchmark", benchmark).build();
        String tail = new LeaderboardQuery(
                        null, null, metric, scenario, precision, batch, workers, software, source, sort, dir, null,
                        margin)
                .link()
                .build()
                .substring("/leaderboard".length());
        String rest = tail.isEmpty() ? "" : "&" + tail.substring(1);
        String separator = head.indexOf('?') < 0 ? "?" : "&";
        return keyId ->
                head + separator + Links.to("").param("key", keyId).build().substring(1) + rest;
    }

    public LeaderboardQuery withSort(String newSort, String newDir) {
        return new LeaderboardQuery(
                benchmark, key, metric, scenario, precision, batch, workers, software, source, newSort, newDir, include,
                margin);
    }
}
