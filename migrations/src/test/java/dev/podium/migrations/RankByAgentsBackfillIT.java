package dev.podium.migrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.migrations.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * V101 and V113 count the runs stored before them: per benchmark, key, device and metric the counted runs of each
 * agent, and per run what it counts for. Only completed, valid, not retracted runs with a mean under a key and device count, once each.
 */
class RankByAgentsBackfillIT {

    @Test
    void runsStoredBeforeTheMigrationAreCountedPerAgent() throws SQLException {
        try (TestDatabase db = TestDatabase.create()) {
            migrate(db, "100");
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("""
                        INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, valid,
                                              retracted, last_position)
                        SELECT ('0193a0c0-0000-7000-8000-00000000000' || n)::uuid, 'run/x', agent, status, 'bench', key,
                               device, valid, retracted, n
                        FROM (VALUES
                            (1, 'a', 'completed', 'k1', 'h100', true, false),
                            (2, 'a', 'completed', 'k1', 'a100', true, false),
                            (3, 'b', 'completed', 'k2', 'h100', true, false),
                            (4, 'b', 'completed', 'k2', 'h100', false, false),
                            (5, 'b', 'completed', 'k2', 'h100', true, true),
                            (6, 'b', 'superseded', 'k2', 'h100', true, false),
                            (7, 'b', 'failed', 'k2', 'h100', NULL, false))
                            AS x(n, agent, status, key, device, valid, retracted)""");
                // Two metrics of run 1 (one run still), none with a mean for run 2's second metric.
                s.execute("""
                        INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id,
                                                 device_id, mean)
                        SELECT run_id, metric, 'u', 'HIGHER_IS_BETTER', 'SYSTEM', true, key_id, device_id, 1.0
                        FROM proj_run, (VALUES ('m1'), ('m2')) AS m(metric)""");
                s.execute("""
                        INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id,
                                                 device_id, mean)
                        VALUES ('0193a0c0-0000-7000-8000-000000000002', 'm3', 'u', 'HIGHER_IS_BETTER', 'SYSTEM', true,
                                'k9', 'h100', NULL)""");
            }
            migrate(db, null);
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                assertThat(
                                rows(
                                        s,
                                        "SELECT benchmark || ' ' || agent_id || ' ' || counted_runs FROM proj_rank_benchmark_agent"))
                        .containsExactlyInAnyOrder("bench a 2", "bench b 1");
                assertThat(rows(s, "SELECT key_id || ' ' || agent_id || ' ' || counted_runs FROM proj_rank_key_agent"))
                        .containsExactlyInAnyOrder("k1 a 2", "k2 b 1");
                assertThat(
                                rows(
                                        s,
                                        "SELECT device_id || ' ' || agent_id || ' ' || counted_runs FROM proj_rank_device_agent"))
                        .containsExactlyInAnyOrder("h100 a 1", "a100 a 1", "h100 b 1");
                assertThat(rows(s, "SELECT benchmark || ' ' || agents || ' ' || counted_runs FROM proj_rank_benchmark"))
                        .containsExactly("bench 2 3");
                assertThat(
                                rows(
                                        s,
                                        "SELECT benchmark || ' ' || key_id || ' ' || agents || ' ' || counted_runs FROM proj_rank_key"))
                        .containsExactlyInAnyOrder("bench k1 1 2", "bench k2 1 1");
                assertThat(rows(s, "SELECT device_id || ' ' || agents || ' ' || counted_runs FROM proj_rank_device"))
                        .containsExactlyInAnyOrder("h100 2 2", "a100 1 1");
                assertThat(
                                rows(
                                        s,
                                        "SELECT right(run_id::text, 1) || ' ' || key_id || ' ' || device_id FROM proj_rank_run"))
                        .containsExactlyInAnyOrder("1 k1 h100", "2 k1 a100", "3 k2 h100");
                // V113: per metric, the same runs, once each; m3 has no mean.
                assertThat(rows(
                                s,
                                "SELECT metric || ' ' || agent_id || ' ' || counted_runs FROM proj_rank_metric_agent"))
                        .containsExactlyInAnyOrder("m1 a 2", "m1 b 1", "m2 a 2", "m2 b 1");
                assertThat(rows(
                                s,
                                "SELECT benchmark || ' ' || metric || ' ' || agents || ' ' || counted_runs "
                                        + "FROM proj_rank_metric"))
                        .containsExactlyInAnyOrder("bench m1 2 3", "bench m2 2 3");
            }
        }
    }

    private static void migrate(TestDatabase db, String target) {
        var config = Flyway.configure()
                .dataSource(db.jdbcUrl(), TestDatabase.USER, "")
                .locations("classpath:db/migration");
        (target == null ? config : config.target(target)).load().migrate();
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
