package dev.podium.ingest.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.model.ComparisonKey;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Histories;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** Steps of histories, found by ingest after the batches that touched them and stored as rows. */
@QuarkusTest
class ChangePointIT {

    /** Generous: a step is visible within a round or two, but CI machines are shared. */
    private static final Duration VISIBLE = Duration.ofSeconds(60);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    /**
     * One run of the history is held back until the updater has folded in the others, as a partition that lags does:
     * the step is first found one point early, and the stored row is read only once every event is folded in.
     */
    @Test
    void aStepIsStoredAtItsPlaceOnceAHeldBackRunArrives() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("steps");
        ComparisonKey key = Histories.freshKey();
        IntToDoubleFunction level = i -> i < 20 ? 100.0 : 90.0;
        List<UUID> runs = new ArrayList<>(Histories.send(db, agent, key, 0, 5, level));
        List<UUID> later = Histories.send(db, agent, key, 6, 24, level);
        awaitFoldedUpTo(db, lastPosition(db, agent));
        runs.addAll(Histories.send(db, agent, key, 5, 1, level));
        runs.addAll(later);

        awaitFoldedUpTo(db, lastPosition(db, agent));
        List<Object> row = db.rows(
                        "SELECT run_id, kind, point_index, level_before, level_after, benchmark, version_before "
                                + "FROM proj_change_point WHERE key_id = ?",
                        key.id())
                .get(0);
        assertThat(row.get(0)).isEqualTo(runs.get(20));
        assertThat(row.get(1)).isEqualTo("regression");
        assertThat(row.get(2)).isEqualTo(20);
        assertThat((Double) row.get(3)).isBetween(99.0, 101.0);
        assertThat((Double) row.get(4)).isBetween(89.0, 91.0);
        assertThat(row.get(5)).isEqualTo(key.benchmark());
        assertThat(row.get(6)).isEqualTo("2.2.2");
        assertThat(db.one("SELECT points FROM proj_history WHERE key_id = ?", key.id()))
                .isEqualTo(30);
    }

    /** Appending runs moves the last level alone: the earlier step's row is not rewritten, whatever σ does. */
    @Test
    void appendingRunsRewritesOnlyTheStepsThatMoved() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("append-steps");
        ComparisonKey key = Histories.freshKey();
        List<UUID> runs = Histories.send(db, agent, key, 30, i -> i < 10 || i >= 20 ? 100.0 : 90.0);
        awaitSteps(db, key, runs.get(10), runs.get(20));
        String firstStep = "SELECT xmin::text FROM proj_change_point WHERE key_id = ? AND run_id = ?";
        Object written = db.one(firstStep, key.id(), runs.get(10));
        double sigma = (Double) db.one("SELECT sigma FROM proj_history WHERE key_id = ?", key.id());

        Histories.send(db, agent, key, 30, 5, i -> 100.0);
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT points FROM proj_history WHERE key_id = ?", key.id()) == 35);
        assertThat(db.one(firstStep, key.id(), runs.get(10))).isEqualTo(written);
        assertThat(db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()))
                .isEqualTo(2);
        assertThat((Double) db.one("SELECT sigma FROM proj_history WHERE key_id = ?", key.id()))
                .isPositive()
                .isNotEqualTo(sigma);
    }

    @Test
    void batchesAreStoredWhileStepDetectionIsHeldUp() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("held");
        ComparisonKey key = Histories.freshKey();
        try (Connection held = dataSource.getConnection()) {
            held.setAutoCommit(false);
            try (Statement s = held.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + ChangePointUpdater.LOCK + ")");
            }
            Histories.send(db, agent, key, 30, i -> i < 20 ? 100.0 : 90.0);
            assertThat(db.count("SELECT count(*) FROM proj_leaderboard_row WHERE key_id = ?", key.id()))
                    .isEqualTo(1);
            assertThat(db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()))
                    .isZero();
            held.rollback();
        }
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()) == 1);
    }

    @Test
    void retractingTheRunsAfterAStepRemovesIt() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("retract-steps");
        ComparisonKey key = Histories.freshKey();
        List<UUID> runs = Histories.send(db, agent, key, 30, i -> i < 20 ? 100.0 : 110.0);
        await().atMost(VISIBLE)
                .until(() -> db.count(
                                "SELECT count(*) FROM proj_change_point WHERE key_id = ? AND kind = 'improvement'",
                                key.id())
                        == 1);

        retract(runs.subList(20, 30));
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()) == 0);
        assertThat(db.one("SELECT points FROM proj_history WHERE key_id = ?", key.id()))
                .isEqualTo(20);
    }

    /** The totals move by what each round changed: new histories, appended points, points retracted. */
    @Test
    void theTotalsFollowTheHistoriesTheyCount() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("totals");
        ComparisonKey key = Histories.freshKey();
        List<UUID> runs = Histories.send(db, agent, key, 30, i -> 100.0);
        await().atMost(VISIBLE)
                .until(() -> db.rows("SELECT points FROM proj_history WHERE key_id = ?", key.id())
                        .equals(List.of(List.<Object>of(30))));
        awaitTotalsOfTheStoredHistories(db);

        Histories.send(db, agent, Histories.freshKey(), 5, i -> 100.0);
        retract(runs.subList(20, 30));
        await().atMost(VISIBLE)
                .until(() -> db.rows("SELECT points FROM proj_history WHERE key_id = ?", key.id())
                        .equals(List.of(List.<Object>of(20))));
        awaitTotalsOfTheStoredHistories(db);
    }

    @Test
    void anEnrolledAgentReportingExtremeValuesDoesNotStopTheUpdater() {
        Db db = new Db(dataSource);
        TestAgent liar = TestAgent.register("extreme");
        ComparisonKey extreme = Histories.freshKey();
        Histories.send(db, liar, extreme, 12, i -> i % 2 == 0 ? 1e149 : 1e-149);

        TestAgent honest = TestAgent.register("after-extreme");
        ComparisonKey key = Histories.freshKey();
        Histories.send(db, honest, key, 30, i -> i < 20 ? 100.0 : 90.0);
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()) == 1);
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM proj_history WHERE key_id = ?", extreme.id()) == 1);
    }

    private void retract(List<UUID> runs) throws Exception {
        List<Envelope> retractions = new ArrayList<>();
        for (UUID run : runs) {
            retractions.add(Envelope.of(
                    UUID.randomUUID(),
                    StreamId.admin(UUID.randomUUID()),
                    1,
                    null,
                    Instant.now(),
                    new ResultRetracted(run, "misconfigured host", "ops")));
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            appender.append(c, retractions, "command:ops");
            c.commit();
        }
    }

    /** Waits until every touch is folded in and the stored totals are those of counting the stored histories. */
    private static void awaitTotalsOfTheStoredHistories(Db db) {
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM history_touched") == 0
                        && db.rows("SELECT histories::bigint, points FROM history_state")
                                .equals(db.rows(
                                        "SELECT count(*), coalesce(sum(points), 0)::bigint FROM proj_history")));
    }

    private static long lastPosition(Db db, TestAgent agent) {
        return (Long) db.one("SELECT max(position) FROM event_store WHERE writer = ?", agent.agentId());
    }

    /**
     * Waits until every touch up to {@code position} is folded in. A round reads the histories after it took their
     * touches, and every batch wrote its touches with its read models, so the rows are then those of the whole history.
     */
    private static void awaitFoldedUpTo(Db db, long position) {
        await().atMost(VISIBLE)
                .until(() -> db.count("SELECT count(*) FROM history_touched WHERE position <= ?", position) == 0);
    }

    /**
     * Waits until the key's steps are those of the whole history: a batch's runs reach partitions in any order, so an
     * earlier round of the updater may have seen a history with a gap and stored a step at another run.
     */
    private static void awaitSteps(Db db, ComparisonKey key, UUID... runs) {
        await().atMost(VISIBLE)
                .until(() -> db.rows(
                                "SELECT run_id FROM proj_change_point WHERE key_id = ? ORDER BY started_at", key.id())
                        .equals(Arrays.stream(runs).map(List::<Object>of).toList()));
    }
}
