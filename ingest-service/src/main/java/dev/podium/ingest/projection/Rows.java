package dev.podium.ingest.projection;

import dev.podium.ingest.store.Columns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The rows of type {@code R} a batch writes to one table, sent as one statement that reads them from column arrays
 * ({@link Columns}: one array parameter per record component) instead of one statement per row: the server plans and
 * executes once per batch, not once per run. An upsert may not change a row twice in one statement, so a row whose key
 * is already in the current statement starts the next one (rare: the same run twice in one batch); rows keep their
 * order.
 */
final class Rows<R extends Record> {

    private final String sql;
    private final Columns<R> columns;
    private final Function<R, Object> key;
    private final List<List<R>> statements = new ArrayList<>();
    private final Set<Object> keys = new HashSet<>();

    /**
     * {@code sql} reads the rows from {@code columns} ({@link Columns#unnest} and its like) and has no other parameter;
     * {@code key} is a row's primary key.
     */
    Rows(Columns<R> columns, String sql, Function<R, Object> key) {
        this.sql = sql;
        this.columns = columns;
        this.key = key;
    }

    /** Writes one row at once. */
    static <R extends Record> void writeOne(Connection c, Columns<R> columns, String sql, R row) throws SQLException {
        Rows<R> rows = new Rows<>(columns, sql, r -> r);
        rows.add(row);
        rows.execute(c);
    }

    void add(R row) {
        Object k = key.apply(row);
        if (statements.isEmpty() || !keys.add(k)) {
            statements.add(new ArrayList<>());
            keys.clear();
            keys.add(k);
        }
        statements.get(statements.size() - 1).add(row);
    }

    boolean isEmpty() {
        return statements.isEmpty();
    }

    /** What a statement with {@code RETURNING} gives back, row by row. */
    @FunctionalInterface
    interface Returned {
        void row(ResultSet rs) throws SQLException;
    }

    /**
     * Executes several tables' rows as one statement of data-modifying CTEs (one round trip instead of one per table),
     * when each holds rows for one statement; otherwise each on its own. Forgets what was added.
     */
    static void executeTogether(Connection c, List<Rows<?>> parts) throws SQLException {
        List<Rows<?>> pending = parts.stream().filter(r -> !r.isEmpty()).toList();
        if (pending.size() < 2 || pending.stream().anyMatch(r -> r.statements.size() > 1)) {
            for (Rows<?> r : pending) {
                r.execute(c);
            }
            return;
        }
        StringBuilder sql = new StringBuilder("WITH ");
        for (int i = 0; i < pending.size(); i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append("part")
                    .append(i)
                    .append(" AS (")
                    .append(pending.get(i).sql)
                    .append(')');
        }
        try (PreparedStatement ps = c.prepareStatement(sql.append(" SELECT 1").toString())) {
            int next = 1;
            for (Rows<?> r : pending) {
                next = r.bindFirst(ps, next);
            }
            ps.execute();
        }
        for (Rows<?> r : pending) {
            r.clear();
        }
    }

    /** Binds the first statement's rows from parameter {@code first} on; the next parameter. */
    private int bindFirst(PreparedStatement ps, int first) throws SQLException {
        return columns.bind(ps, first, statements.get(0));
    }

    /** Executes what was added, in order, and forgets it. */
    void execute(Connection c) throws SQLException {
        execute(c, null);
    }

    /** The same for a statement with {@code RETURNING}: {@code returned} sees every row it gives back. */
    void execute(Connection c, Returned returned) throws SQLException {
        for (List<R> rows : statements) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                columns.bind(ps, 1, rows);
                if (returned == null) {
                    ps.executeUpdate();
                } else {
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            returned.row(rs);
                        }
                    }
                }
            }
        }
        clear();
    }

    private void clear() {
        statements.clear();
        keys.clear();
    }
}
