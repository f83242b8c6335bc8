package dev.podium.ingest.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Small JDBC helpers for assertions. */
public final class Db {

    private final DataSource ds;

    public Db(DataSource ds) {
        this.ds = ds;
    }

    public long count(String sql, Object... params) {
        return ((Number) one(sql, params)).longValue();
    }

    public Object one(String sql, Object... params) {
        List<List<Object>> rows = rows(sql, params);
        if (rows.size() != 1) {
            throw new IllegalStateException(sql + " gave " + rows.size() + " rows");
        }
        return rows.get(0).get(0);
    }

    /** Runs one statement; the number of rows it changed. */
    public int execute(String sql, Object... params) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public List<List<Object>> rows(String sql, Object... params) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<List<Object>> out = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.add(rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** A whole table as text, one line per row, ordered by its primary key. */
    public List<String> dump(String table) {
        List<List<Object>> pk = rows("""
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = ?::regclass AND i.indisprimary ORDER BY a.attnum""", table);
        String order = pk.stream()
                .map(r -> (String) r.get(0))
                .reduce((a, b) -> a + ", " + b)
                .orElseThrow();
        return rows("SELECT t::text FROM " + table + " t ORDER BY " + order).stream()
                .map(r -> (String) r.get(0))
                .toList();
    }
}
