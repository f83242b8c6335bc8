package dev.podium.ingest.store;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A PostgreSQL array literal ({@code {"a","b",NULL}}) for a column array of a multi-row statement, bound to a
 * {@code ?::type[]} parameter. The driver's {@code createArrayOf} escapes element by element, one character at a time,
 * and with ~1 KB JSON payloads that took almost half of the writing thread's CPU; this copies the text between the
 * characters that need a backslash. Elements are written with {@code toString()}, except that an {@link Instant} is
 * truncated to microseconds first (PostgreSQL would round it: live ingest and a replay from the store must write the
 * same instant) and a {@link BigDecimal} is written without an exponent. Pass instants for timestamptz, and numbers,
 * booleans, UUIDs or strings for the rest.
 */
public final class ArrayLiteral {

    private final StringBuilder text;
    private boolean first = true;

    /** An empty literal with room for about {@code elements} short elements. */
    public ArrayLiteral(int elements) {
        text = new StringBuilder(16 + elements * 16).append('{');
    }

    public ArrayLiteral add(Object v) {
        if (!first) {
            text.append(',');
        }
        first = false;
        if (v == null) {
            text.append("NULL");
            return this;
        }
        String s = element(v);
        text.append('"');
        int from = 0;
        for (int j = 0; j < s.length(); j++) {
            char ch = s.charAt(j);
            if (ch == '"' || ch == '\\') {
                // the character itself is copied with the next run
                text.append(s, from, j).append('\\');
                from = j;
            }
        }
        text.append(s, from, s.length()).append('"');
        return this;
    }

    private static String element(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Instant i) {
            return i.truncatedTo(ChronoUnit.MICROS).toString();
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }

    /** The literal of the elements added so far. */
    public String text() {
        return text + "}";
    }

    /** Binds the literal as untyped text: the statement's cast ({@code ?::text[]}, ...) gives its type. */
    public void bind(PreparedStatement ps, int index) throws SQLException {
        ps.setObject(index, text(), Types.OTHER);
    }
}
