package dev.podium.ingest.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * PostgreSQL array literals ({@code {"a","b",NULL}}) for the column arrays of multi-row statements, bound to a
 * {@code ?::type[]} parameter. The driver's {@code createArrayOf} escapes element by element, one character at a time,
 * and with ~1 KB JSON payloads that took almost half of the writing thread's CPU; this copies the text between the
 * characters that need a backslash. Elements are written with {@code toString()}: pass {@link java.time.Instant} for
 * timestamptz (ISO-8601, UTC), and numbers, booleans, UUIDs or strings for the rest.
 */
public final class ArrayLiteral {

    private ArrayLiteral() {
    }

    public static String of(Object[] values) {
        StringBuilder b = new StringBuilder(16 + values.length * 16).append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            Object v = values[i];
            if (v == null) {
                b.append("NULL");
                continue;
            }
            String s = v.toString();
            b.append('"');
            int from = 0;
            for (int j = 0; j < s.length(); j++) {
                char ch = s.charAt(j);
                if (ch == '"' || ch == '\\') {
                    // the character itself is copied with the next run
                    b.append(s, from, j).append('\\');
                    from = j;
                }
            }
            b.append(s, from, s.length()).append('"');
        }
        return b.append('}').toString();
    }

    /** Binds {@code values} as an untyped literal: the statement's cast ({@code ?::text[]}, ...) gives its type. */
    public static void bind(PreparedStatement ps, int index, Object[] values) throws SQLException {
        ps.setObject(index, of(values), Types.OTHER);
    }
}
