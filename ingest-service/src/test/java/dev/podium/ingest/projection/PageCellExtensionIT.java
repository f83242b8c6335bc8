package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Scope;
import dev.podium.events.model.Statistics;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Histories;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A batch that only adds runs to a cell extends its page-cell rows; the rows equal those recomputed from all its runs.
 * Each {@link Histories#send} is stored before the next is sent, so each is a batch of its own.
 */
@QuarkusTest
class PageCellExtensionIT {

    private static final List<String> TABLES =
            List.of("proj_comparison_cell", "proj_leaderboard_version_row", "proj_leaderboard_all_runs_row");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    /** Proven by a stored figure the runs do not give: extending keeps it, recomputing would drop it. */
    @Test
    void aBatchThatOnlyAddsRunsExtendsTheStoredRows() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("extend-cells");
        ComparisonKey key = Histories.freshKey();
        Histories.send(db, agent, key, 3, i -> 100.0 + i);
        db.execute("UPDATE proj_comparison_cell SET failing_runs = failing_runs + 100 WHERE key_id = ?", key.id());

        Histories.send(db, agent, key, 3, 2, i -> 100.0 + i);

        assertThat(db.rows("SELECT runs, failing_runs FROM proj_comparison_cell WHERE key_id = ?", key.id()))
                .containsExactly(List.of(5, 100));
        assertThat(db.one("SELECT runs FROM proj_leaderboard_all_runs_row WHERE key_id = ?", key.id()))
                .isEqualTo(5);
    }

    @Test
    void extendedRowsEqualTheRowsRecomputedFromEveryRun() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("extended-equal");
        ComparisonKey key = Histories.freshKey();
        for (int batch = 0; batch < 4; batch++) {
            Histories.send(db, agent, key, batch * 3, 3, i -> 97.3 + 3.1 * Math.sin(i) + i % 2);
        }
        assertThat(db.one("SELECT runs FROM proj_comparison_cell WHERE key_id = ?", key.id()))
                .isEqualTo(12);

        assertThat(storedRows(key)).hasSize(3).containsExactlyElementsOf(recomputedRows(key));
    }

    @Test
    void aBatchThatRemovesARunRecomputesTheCell() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("retract-cells");
        ComparisonKey key = Histories.freshKey();
        List<UUID> runs = Histories.send(db, agent, key, 4, i -> 100.0 + i);
        db.execute("UPDATE proj_comparison_cell SET failing_runs = failing_runs + 100 WHERE key_id = ?", key.id());

        List<Envelope> retraction = new ArrayList<>();
        retraction.add(Envelope.of(
                UUID.randomUUID(),
                StreamId.admin(UUID.randomUUID()),
                1,
                null,
                Instant.now(),
                new ResultRetracted(runs.get(0), "misconfigured host", "ops")));
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            appender.append(c, retraction, "command:ops");
            c.commit();
        }

        assertThat(db.rows("SELECT runs, failing_runs FROM proj_comparison_cell WHERE key_id = ?", key.id()))
                .containsExactly(List.of(3, 0));
    }

    /**
     * A signed agent reports a run of an existing cell's metric in another unit and direction: the cell's unit and
     * direction come from its first run, so the batch cannot extend it; it is recomputed, and equals a recompute.
     */
    @Test
    void aRunInAnotherUnitIsNotExtendedIntoTheCell() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("unit-mismatch");
        ComparisonKey key = Histories.freshKey();
        Histories.send(db, agent, key, 3, i -> 100.0 + i);
        db.execute("UPDATE proj_comparison_cell SET failing_runs = failing_runs + 100 WHERE key_id = ?", key.id());

        UUID run = UUID.randomUUID();
        List<Double> millis = List.of(9.9, 10.0, 10.1);
        Metric inMillis = new Metric(
                SampleEvents.THROUGHPUT_METRIC,
                "ms",
                Direction.LOWER_IS_BETTER,
                Scope.SYSTEM,
                true,
                millis,
                Statistics.of(millis));
        List<Envelope> events = List.of(
                SampleEvents.runStarted(run, agent.agentId(), SampleEvents.DEVICE_ID, key, Instant.now()),
                SampleEvents.envelope(
                        StreamId.run(run),
                        2,
                        agent.agentId(),
                        Instant.now(),
                        new RunCompleted(
                                run,
                                List.of(inMillis),
                                SampleEvents.valueChecks(
                                        inMillis, 3, Collections.nCopies(3, SampleEvents.REPETITION_SECONDS)),
                                3 * SampleEvents.REPETITION_SECONDS)));
        Histories.sendSigned(db, agent, events);

        assertThat(db.rows("SELECT runs, failing_runs FROM proj_comparison_cell WHERE key_id = ?", key.id()))
                .containsExactly(List.of(4, 0));
        assertThat(storedRows(key)).containsExactlyElementsOf(recomputedRows(key));
    }

    /** The rows of {@code key} as stored. */
    private List<String> storedRows(ComparisonKey key) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            return rows(c, key);
        }
    }

    /** The rows of {@code key} recomputed from all its runs, in a transaction rolled back afterwards. */
    private List<String> recomputedRows(ComparisonKey key) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT podium_refresh_page_cells(array_agg(key_id), array_agg(metric), array_agg(device_id))
                    FROM proj_comparison_cell WHERE key_id = ?""")) {
                ps.setString(1, key.id());
                ps.execute();
            }
            List<String> recomputed = rows(c, key);
            c.rollback();
            return recomputed;
        }
    }

    /** Every row of the three tables for {@code key}, as text. */
    private static List<String> rows(Connection c, ComparisonKey key) throws Exception {
        List<String> out = new ArrayList<>();
        for (String table : TABLES) {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT t::text FROM " + table + " t WHERE key_id = ? ORDER BY t::text")) {
                ps.setString(1, key.id());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(table + " " + rs.getString(1));
                    }
                }
            }
        }
        return out;
    }
}
