package dev.podium.ingest.projection;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

/**
 * What public lists rank by: per benchmark, comparison key, device and a benchmark's metric, how many agents have counted
 * runs of it and how many counted runs there are ({@code proj_rank_benchmark}, {@code proj_rank_key},
 * {@code proj_rank_device}, {@code proj_rank_metric}, one row an entry, which is all a list reads), so that a list puts first what the most agents measured rather than what one agent
 * measured on the most devices. A counted run is one the leaderboard's measured rows hold (completed, valid, not
 * retracted, with a mean under a key and device) of a known agent. Per run, what it counts for ({@code proj_rank_run}),
 * and per entry, the counted runs of each agent ({@code proj_rank_*_agent}) are kept too: a batch rewrites the rows of
 * the runs it touched and adds to the counts only what they gained or lost, the SQL functions of migrations V101 and V113.
 */
@ApplicationScoped
public class RankProjection {

    /** The tables, derived from proj_run and proj_result. */
    static final List<String> TABLES = List.of(
            "proj_rank_run",
            "proj_rank_benchmark_agent",
            "proj_rank_key_agent",
            "proj_rank_device_agent",
            "proj_rank_benchmark",
            "proj_rank_key",
            "proj_rank_device",
            "proj_rank_metric_run",
            "proj_rank_metric_agent",
            "proj_rank_metric");

    void recompute(Connection c, Touched touched) throws SQLException {
        if (touched.runs().isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT podium_refresh_rank_runs(?::uuid[]), podium_refresh_rank_metric_runs(?::uuid[])")) {
            Array runs = c.createArrayOf("uuid", touched.runs().toArray(new UUID[0]));
            ps.setArray(1, runs);
            ps.setArray(2, runs);
            ps.execute();
        }
    }

    void recomputeAll(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_rank(), podium_refresh_all_rank_metrics()");
        }
    }
}
