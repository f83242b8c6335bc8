package dev.podium.ingest.projection;

import dev.podium.events.admin.CatalogEntryHidden;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * {@code proj_hidden_catalog}: the latest CatalogEntryHidden of each benchmark, comparison key and device, whether it
 * hid the entry or showed it again. Guarded by position, so a replay and live ingest leave the same row. Hiding changes
 * what every page lists, so every page is announced as changed.
 */
@ApplicationScoped
public class HiddenCatalogProjection implements Projection {

    /** The read model's table, for {@link Projections#TABLES}. */
    static final List<String> TABLES = List.of("proj_hidden_catalog");

    /** A {@code proj_hidden_catalog} row. */
    private record HiddenRow(
            String kind, String name, boolean hidden, String reason, String actor, Instant changedAt, long position) {}

    private static final Columns<HiddenRow> ROW = Columns.of(HiddenRow.class);

    private static final String UPSERT = """
            INSERT INTO proj_hidden_catalog (kind, name, hidden, reason, actor, changed_at, position)
            SELECT kind, name, hidden, reason, actor, changed_at, position FROM %s
            ON CONFLICT (kind, name) DO UPDATE SET hidden = excluded.hidden, reason = excluded.reason,
                actor = excluded.actor, changed_at = excluded.changed_at, position = excluded.position
            WHERE proj_hidden_catalog.position < excluded.position""".formatted(ROW.unnest("x"));

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof CatalogEntryHidden h)) {
            return;
        }
        Rows.writeOne(
                c,
                ROW,
                UPSERT,
                new HiddenRow(
                        h.kind().text(),
                        h.name(),
                        h.hidden(),
                        h.reason(),
                        h.actor(),
                        event.envelope().occurredAt(),
                        event.position()));
        touched.everyPage();
    }
}
