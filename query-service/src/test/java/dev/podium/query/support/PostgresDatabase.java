package dev.podium.query.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/**
 * A private database on the test PostgreSQL server for one test run: created with a unique name, migrated by Flyway with
 * the migrations module's scripts, seeded with {@link SeedData}, and dropped at the end.
 */
public class PostgresDatabase implements QuarkusTestResourceLifecycleManager {

    private static final String USER = "postgres";
    /** What query-service connects as in production too: the read-only role of V60. */
    public static final String READ_ROLE = "podium_query";

    private String adminUrl;
    private String name;

    @Override
    public Map<String, String> start() {
        adminUrl = System.getProperty("podium.test.db.url", "jdbc:postgresql://127.0.0.1:5432/postgres");
        name = "podium_q_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        execute("CREATE DATABASE " + name);
        String url = adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + name;
        Flyway.configure()
                .dataSource(url, USER, "")
                .locations("classpath:db/migration")
                .load()
                .migrate();
        try (Connection c = DriverManager.getConnection(url, USER, "")) {
            SeedData.load(c);
        } catch (SQLException e) {
            throw new IllegalStateException("seeding " + name + " failed", e);
        }
        return Map.of(
                "quarkus.datasource.jdbc.url",
                url,
                "quarkus.datasource.username",
                READ_ROLE,
                "quarkus.datasource.password",
                "");
    }

    @Override
    public void stop() {
        if (name != null) {
            execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private void execute(String sql) {
        try (Connection c = DriverManager.getConnection(adminUrl, USER, "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
