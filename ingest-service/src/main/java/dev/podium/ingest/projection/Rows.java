package dev.podium.ingest.projection;

import dev.podium.ingest.store.ArrayLiteral;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows a batch writes to one table, sent as one statement that reads them from column arrays ({@code unnest}, one
 * array parameter per column, in the order of {@code types}, bound as {@link ArrayLiteral}s) instead of one statement
 * per row: the server plans and
 * executes once per batch, not once per run. An upsert may not change a row twice in one statement, so a row whose key
 * is already in the current statement starts the next one (rare: the same run twice in one batch); rows keep their
 * order.
 */
final class Rows {

    private final String sql;
    private final String[] types;
    private final List<List<Object[]>> statements = new ArrayList<>();
    private final Set<Object> keys = new HashSet<>();

    /** {@code sql} has one {@code ?::type[]} parameter per entry of {@code types}, in that order. */
    Rows(String sql, String... types) {
        this.sql = sql;
        this.types = types;
    }

    void add(Object key, Object... values) {
        if (values.length != types.length) {
            throw new IllegalArgumentException(values.length + " values for " + types.length + " columns");
        }
        if (statements.isEmpty() || !keys.add(key)) {
            statements.add(new ArrayList<>());
            keys.clear();
            keys.add(key);
        }
        statements.get(statements.size() - 1).add(values);
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
    static void executeTogether(Connection c, List<Rows> parts) throws SQLException {
        List<Rows> pending = parts.stream().filter(r -> !r.isEmpty()).toList();
        if (pending.size() < 2 || pending.stream().anyMatch(r -> r.statements.size() > 1)) {
            for (Rows r : pending) {
                r.execute(c);
            }
            return;
        }
        StringBuilder sql = new StringBuilder("WITH ");
        for (int i = 0; i < pending.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("part").append(i).append(" AS (").append(pending.get(i).sql).append(')');
        }
        try (PreparedStatement ps = c.prepareStatement(sql.append(" SELECT 1").toString())) {
            int next = 1;
            for (Rows r : pending) {
                next = r.bind(ps, r.statements.get(0), next);
            }
            ps.execute();
        }
        for (Rows r : pending) {
            r.statements.clear();
            r.keys.clear();
        }
    }

    /** Binds one statement's rows as column arrays from parameter {@code first} on; returns the next parameter. */
    private int bind(PreparedStatement ps, List<Object[]> rows, int first) throws SQLException {
        for (int col = 0; col < types.length; col++) {
            Object[] column = new Object[rows.size()];
            for (int row = 0; row < rows.size(); row++) {
                column[row] = rows.get(row)[col];
            }
            ArrayLiteral.bind(ps, first + col, column);
        }
        return first + types.length;
    }

    /** Executes what was added, in order, and forgets it. */
    void execute(Connection c) throws SQLException {
        execute(c, null);
    }

    /** The same for a statement with {@code RETURNING}: {@code returned} sees every row it gives back. */
    void execute(Connection c, Returned returned) throws SQLException {
        for (List<Object[]> rows : statements) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, rows, 1);
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
        statements.clear();
        keys.clear();
    }
}
