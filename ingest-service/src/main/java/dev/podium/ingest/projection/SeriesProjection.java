package dev.podium.ingest.projection;

import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code proj_run_series}: one row per MetricSampled event. Rows never change once written, so a batch collects them and
 * sends them as one JDBC batch at its end.
 */
@ApplicationScoped
public class SeriesProjection implements Projection {

    private record Row(MetricSampled sampled, long position) {
    }

    private static final class Pending {
        final List<Row> rows = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof MetricSampled m) {
            touched.state(Pending.class, Pending::new).rows.add(new Row(m, event.position()));
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        List<Row> rows = touched.state(Pending.class, Pending::new).rows;
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run_series (run_id, series, position, unit, samples) VALUES (?, ?, ?, ?, ?::jsonb)
                ON CONFLICT (run_id, series, position) DO NOTHING""")) {
            for (Row row : rows) {
                MetricSampled m = row.sampled();
                Sql.setUuid(ps, 1, m.runId());
                ps.setString(2, m.series().name());
                ps.setLong(3, row.position());
                ps.setString(4, m.unit());
                ps.setString(5, Json.of(m.samples()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
