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
import java.sql.SQLException;
import java.sql.Statement;
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
