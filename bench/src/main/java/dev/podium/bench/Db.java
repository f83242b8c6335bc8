package dev.podium.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;

/** Database helpers: the schema from the migrations module, and row counts of the tables the benchmarks write. */
final class Db {

    static final List<String> TABLES = List.of(
            "event_store",
            "proj_run",
            "proj_result",
            "proj_leaderboard_row",
            "proj_comparison_key",
            "proj_device",
            "proj_host",
            "proj_benchmark");

    private Db() {}

    static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, "postgres", "");
    }

    /** Applies db/migration of the migrations module: the same tables and indexes ingest-service writes to. */
    static void migrate(String url) {
        Flyway.configure()
                .dataSource(url, "postgres", "")
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static Map<String, Long> rowCounts(String url) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = connect(url)) {
            for (String t : TABLES) {
                out.put(t, count(c, "SELECT count(*) FROM " + t));
            }
        }
        return out;
    }
}
