package dev.podium.ingest.projection;

import dev.podium.ingest.store.Columns;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

/**
 * {@code proj_metric_key}: per (benchmark, metric, key, source) the devices with a leaderboard row, which the leaderboard
 * and the comparison read instead of every leaderboard row of a benchmark. Derived from {@code proj_leaderboard_row}
 * alone by the SQL functions of migration V88, for the (key, metric) pairs whose rows {@link LeaderboardProjection}
 * deleted or inserted.
 */
@ApplicationScoped
public class MetricKeyProjection {

    private static final Columns<Touched.KeyMetric> PAIRS = Columns.of(Touched.KeyMetric.class);

    void refresh(Connection c, Set<Touched.KeyMetric> pairs) throws SQLException {
        if (!pairs.isEmpty()) {
            PAIRS.call(c, "podium_refresh_metric_keys", List.copyOf(pairs));
        }
    }

    void recomputeAll(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_metric_keys()");
        }
    }
}
