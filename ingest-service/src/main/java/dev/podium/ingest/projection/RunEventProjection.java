package dev.podium.ingest.projection;

import dev.podium.events.run.RunEvent;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code proj_run_event}: one row per run event, its {@link EventSummary} beside the envelope's columns, which a run page
 * lists instead of reading payloads from the event store; {@code proj_run_event_count}: how many rows a run has, for the
 * page's "N of M". Rows never change once written, so a batch sends them in one statement at its end; an event whose row
 * is already there (a replay) is neither written nor counted again.
 */
@ApplicationScoped
public class RunEventProjection implements Projection {

    /** What the projection computes of an event; the rest of its row is the event store's. */
    private record SummaryRow(UUID runId, long position, String summary) {}

    private static final Columns<SummaryRow> SUMMARIES = Columns.of(SummaryRow.class);

    /**
     * The envelope's columns are read from the event store by primary key, as stored (the payload is not read): the
     * recorded time exists nowhere else.
     */
    private static final String INSERT = """
            WITH added AS (
                INSERT INTO proj_run_event (run_id, seq, position, type, schema_version, writer, occurred_at,
                                            recorded_at, summary)
                SELECT x.run_id, e.seq, x.position, e.type, e.schema_version, e.writer, e.occurred_at, e.recorded_at,
                       x.summary
                FROM %s JOIN event_store e ON e.position = x.position
                ON CONFLICT (run_id, seq) DO NOTHING
                RETURNING run_id)
            INSERT INTO proj_run_event_count AS n (run_id, events)
            SELECT run_id, count(*) FROM added GROUP BY run_id
            ON CONFLICT (run_id) DO UPDATE SET events = n.events + excluded.events""".formatted(SUMMARIES.unnest("x"));

    private static final class Pending {
        final List<SummaryRow> rows = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof RunEvent r) {
            touched.state(Pending.class, Pending::new)
                    .rows
                    .add(new SummaryRow(r.runId(), event.position(), EventSummary.of(r)));
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        List<SummaryRow> pending = touched.state(Pending.class, Pending::new).rows;
        Rows<SummaryRow> rows = new Rows<>(SUMMARIES, INSERT, SummaryRow::position);
        pending.forEach(rows::add);
        rows.execute(c);
        pending.clear();
    }
}
