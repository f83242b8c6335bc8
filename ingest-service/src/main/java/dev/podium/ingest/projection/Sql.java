package dev.podium.ingest.projection;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.UUID;

/** Binding helpers for nullable values. */
final class Sql {

    private Sql() {
    }

    static void setInt(PreparedStatement ps, int i, Integer v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setInt(i, v);
        }
    }

    static void setDouble(PreparedStatement ps, int i, Double v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.DOUBLE);
        } else {
            ps.setDouble(i, v);
        }
    }

    static void setUuid(PreparedStatement ps, int i, UUID v) throws SQLException {
        ps.setObject(i, v, Types.OTHER);
    }

    /**
     * Instants are written truncated to microseconds, PostgreSQL's precision, exactly as the event store holds them: a
     * live batch (nanoseconds from the decoded record) and a replay (microseconds from the store) write the same value.
     */
    static void setTime(PreparedStatement ps, int i, Instant v) throws SQLException {
        ps.setTimestamp(i, v == null ? null : Timestamp.from(time(v)));
    }

    /** The same truncation, for a value bound in an array (see {@link Rows}). */
    static Instant time(Instant v) {
        return v == null ? null : v.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }
}
