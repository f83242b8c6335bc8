package dev.podium.query.view;

import dev.podium.query.stats.LeaderboardExtras;
import java.util.List;

/**
 * Everything a leaderboard page shows, and what /api/v1/leaderboard returns. The extras' columns, where there are any, are
 * those of the entries, in the same order.
 */
public record LeaderboardView(
        LeaderboardQuery query,
        List<Option> benchmarks,
        List<Option> metrics,
        List<Option> scenarios,
        List<Option> precisions,
        List<Option> batchSizes,
        List<Option> workers,
        List<Option> softwareVersions,
        List<Option> sources,
        List<KeyOption> keys,
        KeyOption key,
        String unit,
        String direction,
        String sort,
        String dir,
        List<LeaderboardEntry> entries,
        LeaderboardExtras extras) {

    public LeaderboardView(
            LeaderboardQuery query,
            List<Option> benchmarks,
            List<Option> metrics,
            List<Option> scenarios,
            List<Option> precisions,
            List<Option> batchSizes,
            List<Option> workers,
            List<Option> softwareVersions,
            List<Option> sources,
            List<KeyOption> keys,
            KeyOption key,
            String unit,
            String direction,
            String sort,
            String dir,
            List<LeaderboardEntry> entries) {
        this(
                query,
                benchmarks,
                metrics,
                scenarios,
                precisions,
                batchSizes,
                workers,
                softwareVersions,
                sources,
                keys,
                key,
                unit,
                direction,
                sort,
                dir,
                entries,
                null);
    }

    /** This view with validity counts, cost, energy and scaling columns. */
    public LeaderboardView withExtras(LeaderboardExtras e) {
        return new LeaderboardView(
                query,
                benchmarks,
                metrics,
                scenarios,
                precisions,
                batchSizes,
                workers,
                softwareVersions,
                sources,
                keys,
                key,
                unit,
                direction,
                sort,
                dir,
                entries,
                e);
    }

    /** The same leaderboard with runs that failed a validity check counted, or left out again. */
    public String includeFailingLink() {
        return query.withInclude(!query.includeFailing()).link().build();
    }

    /** The link that sorts by {@code column}, flipping the direction when it is the current sort. */
    public String sortLink(String column) {
        String next = column.equals(sort) ? ("asc".equals(dir) ? "desc" : "asc") : defaultDir(column, direction);
        return query.withSort(column, next).link().build();
    }

    public String sortMark(String column) {
        return column.equals(sort) ? ("asc".equals(dir) ? " ▲" : " ▼") : "";
    }

    public boolean lowerIsBetter() {
        return Labels.lowerIsBetter(direction);
    }

    public String csvLink() {
        return "/api/v1/leaderboard.csv" + query.link().build().substring("/leaderboard".length());
    }

    public String jsonLink() {
        return "/api/v1/leaderboard" + query.link().build().substring("/leaderboard".length());
    }

    static String defaultDir(String column, String direction) {
        boolean lower = Labels.lowerIsBetter(direction);
        return switch (column) {
            case "mean", "best" -> lower ? "asc" : "desc";
            case "n", "runs" -> "desc";
            default -> "asc";
        };
    }
}
