package dev.podium.ingest.testing;

import dev.podium.migrations.testing.TestDatabase;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** A database of this test run's own on the shared PostgreSQL server, dropped at the end. */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private TestDatabase db;

    @Override
    public Map<String, String> start() {
        db = TestDatabase.create();
        return Map.of(
                "quarkus.datasource.jdbc.url",
                db.jdbcUrl(),
                "quarkus.datasource.username",
                TestDatabase.USER,
                "quarkus.datasource.password",
                "");
    }

    @Override
    public void stop() {
        if (db != null) {
            db.close();
        }
    }
}
