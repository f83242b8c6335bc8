package dev.podium.migrations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.migrations.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MigrationsIT {

    private static final List<String> VIEWS = List.of(
            "analytics.results",
            "analytics.published_claims",
            "analytics.leaderboard",
            "analytics.runs",
            "analytics.agents",
            "analytics.events");

    private static TestDatabase db;
    private static MigrateResult migrated;

    @BeforeAll
    static void migrateFreshDatabase() {
        db = TestDatabase.create();
        migrated = Flyway.configure()
                .dataSource(db.jdbcUrl(), TestDatabase.USER, "")
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }

    @AfterAll
    static void dropDatabase() {
        db.close();
    }

    @Test
    void everyScriptAppliesToAFreshDatabase() throws SQLException {
        assertThat(migrated.success).isTrue();
        assertThat(migrated.migrationsExecuted).isGreaterThanOrEqualTo(3);
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(migrated.migrationsExecuted);
        }
    }

    @Test
    void analystReadsEveryAnalyticsView() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET ROLE podium_analyst");
                List<String> read = new ArrayList<>();
                for (String view : VIEWS) {
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + view)) {
                        rs.next();
                        read.add(view + "=" + rs.getLong(1));
                    }
                }
                assertThat(read).hasSize(VIEWS.size());
            } finally {
                c.rollback();
            }
        }
    }

    @Test
    void analystCannotReadAgentKeys() throws SQLException {
        assertDeniedToAnalyst("SELECT * FROM agent_key");
        assertDeniedToAnalyst("SELECT secret_ciphertext FROM public.agent_key");
    }

    @Test
    void analystCannotReadTheTablesBehindTheViews() throws SQLException {
        assertDeniedToAnalyst("SELECT * FROM event_store");
        assertDeniedToAnalyst("SELECT * FROM proj_run");
    }

    @Test
    void analystCannotWriteAnything() throws SQLException {
        assertDeniedToAnalyst("INSERT INTO proj_benchmark (benchmark, last_position) VALUES ('x', 1)");
        assertDeniedToAnalyst("DELETE FROM event_store");
        assertDeniedToAnalyst("UPDATE agent_key SET status = 'active'");
        assertDeniedToAnalyst("DELETE FROM analytics.agents");
        assertDeniedToAnalyst("CREATE TABLE analytics.mine (x int)");
        assertDeniedToAnalyst("CREATE TABLE public.mine (x int)");
        assertDeniedToAnalyst("CREATE VIEW analytics.keys AS SELECT * FROM agent_key");
    }

    @Test
    void onlyTheFirstGrantOfAJobsEpochIsStored() throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                s.execute("""
                        INSERT INTO job (job_id, pool, spec, state, seq)
                        VALUES ('6b1d0000-0000-4000-8000-000000000001', 'gaudi2', '{}', 'requested', 1)""");
                String grant = """
                        INSERT INTO job_grant (job_id, lease_epoch, run_id, agent_id)
                        VALUES ('6b1d0000-0000-4000-8000-000000000001', %d, '%s', '%s')
                        ON CONFLICT DO NOTHING""";
                assertThat(s.executeUpdate(grant.formatted(1, "a3c40000-0000-4000-8000-000000000001", "first")))
                        .isEqualTo(1);
                assertThat(s.executeUpdate(grant.formatted(1, "a3c40000-0000-4000-8000-000000000002", "second")))
                        .isZero();
                assertThat(s.executeUpdate(grant.formatted(2, "a3c40000-0000-4000-8000-000000000003", "second")))
                        .isEqualTo(1);
                assertThatThrownBy(() -> s.execute("""
                        UPDATE job SET state = 'lost' WHERE job_id = '6b1d0000-0000-4000-8000-000000000001'""")).isInstanceOf(SQLException.class);
            } finally {
                c.rollback();
            }
        }
        assertDeniedToAnalyst("SELECT * FROM job");
        assertDeniedToAnalyst("SELECT * FROM campaign");
    }

    @Test
    void queryRoleReadsThePagesTablesButNoSecretAndWritesNothing() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET ROLE podium_query");
                for (String table : List.of(
                        "proj_run",
                        "proj_leaderboard_row",
                        "job",
                        "campaign",
                        "agent_status",
                        "flyway_schema_history",
                        "analytics.results")) {
                    s.executeQuery("SELECT count(*) FROM " + table).close();
                }
            } finally {
                c.rollback();
            }
        }
        assertDenied("podium_query", "SELECT * FROM agent_key");
        assertDenied("podium_query", "SELECT * FROM campaign_secret");
        assertDenied("podium_query", "SELECT * FROM outbox");
        assertDenied("podium_query", "SELECT * FROM event_store");
        assertDenied("podium_query", "SELECT * FROM rejected_event");
        assertDenied("podium_query", "INSERT INTO proj_benchmark (benchmark, last_position) VALUES ('x', 1)");
        assertDenied("podium_query", "UPDATE proj_run SET status = 'completed'");
        assertDenied("podium_query", "DELETE FROM event_store");
        assertDenied("podium_query", "TRUNCATE proj_run");
        assertDenied("podium_query", "CREATE TABLE public.mine (x int)");
    }

    /** A session of query-service's role cannot run a statement for longer than 5 s, whatever it sets up. */
    @Test
    void theQueryRoleHasAStatementTimeout() throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(db.jdbcUrl(), "podium_query", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("5s");
        }
    }

    /** The query role reads an allowlist (V112): a table a later migration adds is closed to it until granted. */
    @Test
    void aTableOfALaterMigrationIsClosedToTheQueryRoleUntilGranted() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE proj_later (x int)");
                s.execute("SAVEPOINT before_read");
                s.execute("SET ROLE podium_query");
                assertThatThrownBy(() -> s.executeQuery("SELECT count(*) FROM proj_later"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
                s.execute("ROLLBACK TO SAVEPOINT before_read");
                s.execute("GRANT SELECT ON proj_later TO podium_query");
                s.execute("SET ROLE podium_query");
                s.executeQuery("SELECT count(*) FROM proj_later").close();
            } finally {
                c.rollback();
            }
        }
    }

    @Test
    void analyticsEventsMasksJobEnvironmentValues() throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                s.execute("""
                        INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, occurred_at,
                            payload, payload_hash)
                        VALUES ('0c1d0000-0000-4000-8000-000000000001', 'job/x', 1, 'JobRequested', 1, 'command:t', now(),
                            '{"job_id": "x", "spec": {"benchmark": "b", "environment": {"HF_TOKEN": "hf_leaked_value", "OMP_NUM_THREADS": "4"}}}',
                            'h')""");
                s.execute("SET ROLE podium_analyst");
                try (ResultSet rs = s.executeQuery(
                        "SELECT payload::text FROM analytics.events WHERE event_id = '0c1d0000-0000-4000-8000-000000000001'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1))
                            .doesNotContain("hf_leaked_value")
                            .doesNotContain("\"4\"")
                            .contains("HF_TOKEN")
                            .contains("OMP_NUM_THREADS")
                            .contains("\"benchmark\": \"b\"");
                }
            } finally {
                c.rollback();
            }
        }
    }

    @Test
    void runListsAreReadInTheOrderOfAnIndex() throws SQLException {
        // query-service's run lists: newest stored first, runs not yet started last. With sorting priced out, a plan
        // that still sorts has no index in that order, and at a million runs each list would sort them all.
        for (String where : List.of("", "WHERE device_id = 'd' ", "WHERE benchmark = 'b' ")) {
            String sql = "SELECT run_id FROM proj_run " + where + "ORDER BY started_position DESC NULLS LAST LIMIT 20";
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("SET enable_sort = off");
                s.execute("SET enable_seqscan = off");
                StringBuilder plan = new StringBuilder();
                try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
                assertThat(plan.toString()).as(sql).doesNotContain("Sort").contains("Index Scan");
            }
        }
    }

    @Test
    void theRefreshOfEveryCellHasTheMemoryForAnExactBitmapOfEveryRun() throws SQLException {
        // Under the default 4 MB its bitmap over proj_result goes lossy past about 1,500,000 runs, and each row of a
        // lossy
        // page is then checked against the array of every run id element by element: a rebuild turns quadratic (V87).
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT proconfig FROM pg_proc WHERE proname = 'podium_refresh_all_page_cells'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).contains("work_mem=128MB");
        }
    }

    private static void assertDeniedToAnalyst(String sql) throws SQLException {
        assertDenied("podium_analyst", sql);
    }

    private static void assertDenied(String role, String sql) throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET ROLE " + role);
                assertThatThrownBy(() -> s.execute(sql))
                        .as(sql)
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                .as("SQLSTATE of " + sql)
                                .isIn("42501", "0A000"));
            } finally {
                c.rollback();
            }
        }
    }
}
