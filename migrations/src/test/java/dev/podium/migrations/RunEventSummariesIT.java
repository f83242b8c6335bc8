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

/** V99 summarises the run events stored before it, each in at most 200 characters, and counts them per run. */
class RunEventSummariesIT {

    private static final String RUN = "0193a0c0-0000-7000-8000-000000000001";

    @Test
    void eventsStoredBeforeTheMigrationGetBoundedSummariesAndACount() throws SQLException {
        try (TestDatabase db = TestDatabase.create()) {
            migrate(db, "96");
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("""
                        INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, occurred_at,
                                                 payload, payload_hash)
                        SELECT gen_random_uuid(), stream_id, seq, type, 1, writer, now(), payload::jsonb, 'h'
                        FROM (VALUES
                            ('run/%1$s', 1, 'RunStarted', 'a', '{"run_id": "%1$s", "key": {"benchmark": "bench"},
                                "accelerators": [{"device_id": "h100", "total": 8}], "repetitions": 3}'),
                            ('run/%1$s', 3, 'RunCompleted', 'a', '{"run_id": "%1$s", "metrics": [{"name": "m1"},
                                {"name": "m2"}], "validity": [{"passed": true}, {"passed": false}],
                                "duration_seconds": 127.5}'),
                            ('run/%1$s', 4, 'RunFailed', 'a', '{"run_id": "%1$s", "phase": "measure", "exit_code": 137,
                                "reason": "line one\\nline two ' || repeat('x', 5000) || '"}'),
                            ('run/%1$s', 5, 'RunProgress', 'a', '{"run_id": "%1$s", "step": 5}'),
                            ('run/%1$s', 6, 'MetricSampled', 'a', '{"run_id": "%1$s", "series": "POWER", "unit": "W",
                                "samples": "not an array"}'),
                            ('run/0193a0c0-0000-7000-8000-000000000002', 1, 'RunProgress', 'a',
                                '{"run_id": "%1$s", "step": 1}'),
                            ('run/%1$s', 7, 'JobClaimed', 'a', '{"run_id": "%1$s", "agent_id": "b"}'))
                            AS x(stream_id, seq, type, writer, payload)""".formatted(RUN));
                s.execute("""
                        INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, occurred_at,
                                                 payload, payload_hash)
                        SELECT gen_random_uuid(), 'run/%1$s', 2, 'MetricSampled', 1, 'a', now(),
                               jsonb_build_object('run_id', '%1$s', 'series', 'POWER', 'unit', 'W', 'samples',
                                   (SELECT jsonb_agg(jsonb_build_object('t', i * 0.25, 'value', 400 + i %% 200))
                                    FROM generate_series(0, 9999) i)), 'h'""".formatted(RUN));
            }
            migrate(db, null);
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                assertThat(rows(s, "SELECT seq || ' ' || summary FROM proj_run_event ORDER BY seq"))
                        .startsWith(
                                "1 bench; devices h100 ×8; 3 repetitions",
                                "2 POWER in W: 10000 samples, t 0.0-2499.75 s, values 400.0-599.0",
                                "3 2 metrics: m1, m2; 1 of 2 checks passed; 127.5 s")
                        .contains("5 {\"step\": 5}", "6 POWER in W: 0 samples")
                        .hasSize(6);
                assertThat(rows(s, "SELECT summary FROM proj_run_event WHERE seq = 4"))
                        .singleElement()
                        .satisfies(r -> assertThat(r)
                                .startsWith("failed in measure (exit 137): line one line two xxx")
                                .hasSize(200)
                                .endsWith("…"));
                assertThat(rows(s, "SELECT run_id || ' ' || events FROM proj_run_event_count"))
                        .containsExactly(RUN + " 6");
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
