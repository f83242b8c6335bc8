package dev.podium.ingest.projection;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.UUID;

/** Binding helpers for single parameters; rows are bound by {@link dev.podium.ingest.store.Columns}. */
final class Sql {

    private Sql() {}

    static void setUuid(PreparedStatement ps, int i, UUID v) throws SQLException {
        ps.setObject(i, v, Types.OTHER);
    }
}
