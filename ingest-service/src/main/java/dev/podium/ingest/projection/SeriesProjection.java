package dev.podium.ingest.projection;

import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code proj_run_series}: one row per MetricSampled event. Rows never change once written, so a batch collects them and
 * sends them in one statement at its end.
 */
@ApplicationScoped
public class SeriesProjection implements Projection {

    /** A {@code proj_run_series} row; {@code samples} is JSON. */
    private record SeriesRow(UUID runId, String series, long position, String unit, String samples) {

        static SeriesRow of(MetricSampled m, long position) {
            return new SeriesRow(m.runId(), m.series().name(), position, m.unit(), Json.of(m.samples()));
        }

        Object key() {
            return List.of(runId, series, position);
        }
    }

    private static final Columns<SeriesRow> SERIES = Columns.of(SeriesRow.class);

    private static final String INSERT = """
            INSERT INTO proj_run_series (run_id, series, position, unit, samples)
            SELECT run_id, series, position, unit, samples::jsonb FROM %s
            ON CONFLICT (run_id, series, position) DO NOTHING""".formatted(SERIES.unnest("x"));

    private static final class Pending {
        final List<SeriesRow> rows = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof MetricSampled m) {
            touched.state(Pending.class, Pending::new).rows.add(SeriesRow.of(m, event.position()));
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        List<SeriesRow> pending = touched.state(Pending.class, Pending::new).rows;
        Rows<SeriesRow> rows = new Rows<>(SERIES, INSERT, SeriesRow::key);
        pending.forEach(rows::add);
        rows.execute(c);
    }
}
