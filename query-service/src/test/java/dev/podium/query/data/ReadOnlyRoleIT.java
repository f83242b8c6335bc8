package dev.podium.query.data;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.query.support.PostgresDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** query-service's datasource is the read-only role: pages work, and no statement through it can write or see a secret. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class ReadOnlyRoleIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theDatasourceConnectsAsTheReadOnlyRole() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT current_user")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(PostgresDatabase.READ_ROLE);
        }
        given().get("/").then().statusCode(200);
    }

    @Test
    void anInsertThroughTheDatasourceIsRefused() {
        assertRefused("INSERT INTO proj_benchmark (benchmark, last_position) VALUES ('written-by-query', 1)");
        assertRefused("UPDATE proj_run SET status = 'completed'");
        assertRefused("DELETE FROM event_store");
        assertRefused("CREATE TABLE planted (x int)");
    }

    /**
     * The role reads the tables its pages read and no other (V112's allowlist): not the event store, the refused
     * records, the outbox or any table a later migration adds without granting it.
     */
    @Test
    void theRoleReadsOnlyTheTablesOnItsList() throws SQLException {
        assertThat(rows("""
                        SELECT t.tablename FROM (SELECT tablename FROM pg_tables WHERE schemaname = 'public' OFFSET 0) t
                        WHERE has_table_privilege(current_user, 'public.' || quote_ident(t.tablename), 'SELECT')
                        ORDER BY 1"""))
                .containsExactly(
                        "agent_status",
                        "campaign",
                        "campaign_adaptive",
                        "campaign_adaptive_side",
                        "claim_reproduction",
                        "flyway_schema_history",
                        "history_state",
                        "job",
                        "job_grant",
                        "proj_agent",
                        "proj_benchmark",
                        "proj_cell_run",
                        "proj_change_point",
                        "proj_comparison_cell",
                        "proj_comparison_key",
                        "proj_device",
                        "proj_energy_cell",
                        "proj_fleet_cell",
                        "proj_fleet_unit",
                        "proj_hardware_use_cell",
                        "proj_hidden_catalog",
                        "proj_history",
                        "proj_host_matmul",
                        "proj_leaderboard_all_runs_row",
                        "proj_leaderboard_row",
                        "proj_leaderboard_version_row",
                        "proj_metric_key",
                        "proj_published_claim",
                        "proj_rank_benchmark",
                        "proj_rank_device",
                        "proj_rank_key",
                        "proj_rank_metric",
                        "proj_reproduction_staleness",
                        "proj_result",
                        "proj_retraction",
                        "proj_run",
                        "proj_run_event",
                        "proj_run_event_count",
                        "proj_run_series_head",
                        "proj_run_series_point",
                        "proj_run_throttle_head");
        assertRefused("SELECT count(*) FROM event_store");
        assertRefused("SELECT count(*) FROM rejected_event");
        assertRefused("SELECT count(*) FROM outbox");
    }

    /** Every statement of the role ends after 5 s, set for the role in this database (not for the whole cluster). */
    @Test
    void theRolesStatementsEndAfterFiveSeconds() throws SQLException {
        assertThat(rows("SHOW statement_timeout")).containsExactly("5s");
    }

    private List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void secretsAreNotReadableThroughTheDatasource() {
        assertRefused("SELECT secret_ciphertext FROM agent_key");
        assertRefused("SELECT ciphertext FROM campaign_secret");
    }

    private void assertRefused(String sql) {
        assertThatThrownBy(() -> {
                    try (Connection c = dataSource.getConnection();
                            Statement s = c.createStatement()) {
                        s.execute(sql);
                    }
                })
                .as(sql)
                .isInstanceOf(SQLException.class)
                .satisfies(e ->
                        assertThat(((SQLException) e).getSQLState()).as(sql).isEqualTo("42501"));
    }
}
