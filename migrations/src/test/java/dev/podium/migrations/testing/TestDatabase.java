package dev.podium.migrations.testing;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * A database of its own for one test run, on the shared PostgreSQL server ({@code podium.test.db.url}, default
 * {@code jdbc:postgresql://127.0.0.1:5432/postgres}, user {@code postgres}): created with a unique name and dropped on
 * {@link #close()}, so concurrent runs never see each other's rows.
 */
public final class TestDatabase implements AutoCloseable {

    public static final String USER = "postgres";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String adminUrl;
    private final String name;
    private final String url;

    private TestDatabase(String adminUrl, String name) {
        this.adminUrl = adminUrl;
        this.name = name;
        this.url = adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + name;
    }

    /** Creates {@code podium_test_<random>} on the server. */
    public static TestDatabase create() {
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        TestDatabase db = new TestDatabase(
                System.getProperty("podium.test.db.url", "jdbc:postgresql://127.0.0.1:5432/postgres"),
                "podium_test_" + HexFormat.of().formatHex(suffix));
        db.admin("CREATE DATABASE " + db.name);
        return db;
    }

    public String name() {
        return name;
    }

    public String jdbcUrl() {
        return url;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, USER, "");
    }

    @Override
    public void close() {
        admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private void admin(String sql) {
        try (Connection c = DriverManager.getConnection(adminUrl, USER, "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
