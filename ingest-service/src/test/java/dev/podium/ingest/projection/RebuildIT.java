package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.CatalogEntryHidden;
import dev.podium.events.admin.CatalogKind;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.history.ChangePointUpdater;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs;
import dev.podium.ingest.testing.HardwareUseRuns;
import dev.podium.ingest.testing.Histories;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.Reproductions;
import dev.podium.ingest.testing.TestAgent;
import dev.podium.ingest.testing.ThrottledRuns;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Rebuilding the read models from the event store gives the very same rows, with ingest and the views answering meanwhile. */
@QuarkusTest
class RebuildIT {

    /** The low 32 bits of the change-point updater's advisory lock key, as pg_locks shows them. */
    private static final long UPDATER_LOCK_LOW = ChangePointUpdater.LOCK & 0xffffffffL;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Test
    void rebuildingFromTheEventStoreGivesIdenticalRows() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("rebuild");
        UUID jobId = UUID.randomUUID();
        UUID firstEpochRun = UUID.randomUUID();
        UUID secondEpochRun = UUID.randomUUID();
        UUID retractedRun = UUID.randomUUID();
        UUID failedRun = UUID.randomUUID();
        List<Envelope> events = new ArrayList<>();
        events.add(SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now()));
        events.add(SampleEvents.jobClaimed(firstEpochRun, jobId, agent.agentId(), SampleEvents.POOL, Instant.now()));
        events.add(SampleEvents.runStartedForJob(
                firstEpochRun,
                jobId,
                1,
                2,
                agent.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(1),
                Instant.now()));
        events.add(SampleEvents.runCompleted(firstEpochRun, agent.agentId(), 3, List.of(610.0, 611.0, 612.0)));
        events.add(SampleEvents.jobClaimed(secondEpochRun, jobId, agent.agentId(), SampleEvents.POOL, Instant.now()));
        events.add(SampleEvents.runStartedForJob(
                secondEpochRun,
                jobId,
                2,
                2,
                agent.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(1),
                Instant.now()));
        events.add(SampleEvents.runCompleted(secondEpochRun, agent.agentId(), 3, List.of(600.0, 601.0, 602.0)));
        events.addAll(SampleEvents.completedRun(
                retractedRun,
                agent.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(1),
                Instant.now(),
                List.of(700.0, 702.0, 704.0)));
        // A key of its own: other tests of this app store runs under referenceKey(1) too.
        ComparisonKey plainKey = SampleEvents.referenceKey(1000 + new java.util.Random().nextInt(1_000_000));
        // A run with its accelerators' power limits and throttle reasons (a thermal slowdown in its window).
        events.addAll(ThrottledRuns.run(
                UUID.randomUUID(), agent.agentId(), plainKey, 700, ThrottleReason.HW_THERMAL_SLOWDOWN));
        events.addAll(SampleEvents.completedRun(
                UUID.randomUUID(),
                agent.agentId(),
                "amd-mi300x",
                plainKey,
                Instant.now(),
                List.of(500.0, 501.0, 502.0)));
        // A run with power on two devices, one chunk of it after its completion, so that energy is rebuilt too.
        UUID powerRun = UUID.randomUUID();
        events.add(SampleEvents.runStarted(powerRun, agent.agentId(), "intel-gaudi2", plainKey, Instant.now()));
        events.add(SampleEvents.metricSampled(
                powerRun,
                agent.agentId(),
                2,
                SeriesKind.POWER,
                "W",
                List.of(new Sample(1, 600, 0, 0), new Sample(1, 580, 0, 1))));
        events.add(SampleEvents.runCompleted(powerRun, agent.agentId(), 3, List.of(300.0, 301.0, 302.0)));
        events.add(SampleEvents.metricSampled(
                powerRun, agent.agentId(), 4, SeriesKind.POWER, "W", List.of(new Sample(2, 620, 0, 0))));
        // A mamf run and a run on the same host stating its work, so that hardware use is rebuilt too.
        events.addAll(HardwareUseRuns.matmul(
                UUID.randomUUID(),
                agent.agentId(),
                "amd-mi300x",
                HardwareUseRuns.key("podium-mamf", "microbenchmark"),
                List.of(600.0, 610.0, 620.0)));
        events.addAll(HardwareUseRuns.stated(
                UUID.randomUUID(),
                agent.agentId(),
                "amd-mi300x",
                HardwareUseRuns.key("podium-reference", "training"),
                List.of(99.0, 100.0, 101.0),
                new WorkPerUnit(3e12, 2e10, WorkPerUnit.Basis.COMPUTED)));
        events.add(SampleEvents.runStarted(
                failedRun, agent.agentId(), "amd-mi300x", SampleEvents.referenceKey(2), Instant.now()));
        events.add(SampleEvents.runFailed(failedRun, agent.agentId(), 2, "measure", "out of memory"));
        // A history with a step, so that the change points are rebuilt too.
        for (int i = 0; i < 24; i++) {
            double level = i < 14 ? 300 : 270;
            events.addAll(SampleEvents.completedRun(
                    UUID.randomUUID(),
                    agent.agentId(),
                    "intel-gaudi2",
                    SampleEvents.referenceKey(3),
                    Instant.parse("2026-03-01T00:00:00Z").plus(Duration.ofDays(i)),
                    List.of(level - 1, level + Math.sin(i), level + 1)));
        }
        List<ProducerRecord<byte[], byte[]>> records =
                events.stream().map(agent::signed).toList();
        Kafka.send(records);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                        == events.size());

        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            appender.append(
                    c,
                    List.of(
                            SampleEvents.jobAssigned(jobId, secondEpochRun, agent.agentId(), 2, 1, Instant.now()),
                            // Below a microsecond: the store keeps it truncated, and so must the live row.
                            Envelope.of(
                                    UUID.randomUUID(),
                                    StreamId.admin(UUID.randomUUID()),
                                    1,
                                    null,
                                    Instant.parse("2026-03-02T10:00:00.123456789Z"),
                                    new ResultRetracted(retractedRun, "throttled", "ops")),
                            hidden(CatalogKind.DEVICE, "amd-mi300x", true),
                            hidden(CatalogKind.DEVICE, "amd-mi300x", false),
                            hidden(CatalogKind.KEY, plainKey.id(), true),
                            SampleEvents.publishedClaimImported(SampleEvents.gaudi2Workers0Claim(), 1)),
                    "command:ops");
            c.commit();
        }
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", firstEpochRun))
                .isEqualTo("superseded");
        assertThat(db.one("SELECT retracted FROM proj_run WHERE run_id = ?", retractedRun))
                .isEqualTo(true);
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", failedRun))
                .isEqualTo("failed");
        assertThat(db.count("SELECT count(*) FROM proj_leaderboard_row WHERE source = 'published'"))
                .isPositive();
        // The page cells of a plain completed run; the gaudi2 runs were superseded or retracted.
        assertThat(db.count(
                        "SELECT count(*) FROM proj_comparison_cell WHERE key_id = ? AND device_id = 'amd-mi300x' AND runs = 1 "
                                + "AND values_n = 3 AND means_n = 1 AND failing_runs = 0",
                        plainKey.id()))
                .as(db.dump("proj_comparison_cell").toString())
                .isPositive();
        assertThat(db.count(
                        "SELECT count(*) FROM proj_leaderboard_version_row WHERE key_id = ? AND device_id = 'amd-mi300x' "
                                + "AND runs = 1 AND framework_version = ?",
                        plainKey.id(),
                        SampleEvents.software().frameworkVersion()))
                .isPositive();

        assertThat(db.count(
                        "SELECT count(*) FROM proj_energy_cell WHERE key_id = ? AND device_id = 'intel-gaudi2' AND runs = 1 "
                                + "AND watts_sum = 1190 AND failing_runs = 0",
                        plainKey.id()))
                .as(db.dump("proj_energy_cell").toString())
                .isOne();

        // A reproduction gone stale; the leases of its runs run out (no heartbeats) before the rows are compared.
        String pool = FleetJobs.pool("rebuild");
        UUID reproduction = Reproductions.reproduce(pool);
        UUID basis =
                Reproductions.startGranted(db, Reproductions.job(db, reproduction, pool), pool, "2.2.2", "CUDA 12.4");
        UUID revealing = Reproductions.startGranted(db, Reproductions.otherJob(pool), pool, "2.5.0", "CUDA 12.4");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count(
                                "SELECT count(*) FROM proj_run WHERE run_id IN (?, ?) AND status = 'superseded'",
                                basis,
                                revealing)
                        == 2);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM proj_change_point") > 0
                        && db.count("SELECT count(*) FROM history_touched") == 0);
        Map<String, List<String>> before = dumpAll(db);
        assertThat(before.values()).allSatisfy(rows -> assertThat(rows).isNotEmpty());
        // Totals gone wrong whatever way: the swap counts them afresh from the rebuilt histories.
        db.execute("UPDATE history_state SET histories = 0, points = 0");

        long replayed = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("replayed_events");
        assertThat(replayed).isEqualTo(db.count("SELECT count(*) FROM event_store"));

        Map<String, List<String>> after = dumpAll(db);
        for (String table : Projections.TABLES) {
            List<String> lost = new ArrayList<>(before.get(table));
            lost.removeAll(after.get(table));
            List<String> gained = new ArrayList<>(after.get(table));
            gained.removeAll(before.get(table));
            assertThat(lost)
                    .as(table + ": rows before the rebuild and not after")
                    .isEmpty();
            assertThat(gained)
                    .as(table + ": rows after the rebuild and not before")
                    .isEmpty();
            assertThat(after.get(table)).as(table).containsExactlyElementsOf(before.get(table));
        }
        assertThat(db.rows("SELECT histories::bigint, points FROM history_state"))
                .isEqualTo(db.rows("SELECT count(*), coalesce(sum(points), 0)::bigint FROM proj_history"));
    }

    @Test
    void analyticsViewsTheirGrantsAndTheTablesGrantsIndexesAndKeysSurviveTheSwap() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("rebuild-views");
        Histories.send(db, agent, Histories.freshKey(), 24, i -> i < 14 ? 300.0 : 270.0);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(
                    "DO $$ BEGIN CREATE ROLE podium_rebuild_reader NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
            s.execute("GRANT SELECT ON proj_leaderboard_row TO podium_rebuild_reader");
        }
        List<String> views = db
                .rows("SELECT table_name FROM information_schema.views WHERE table_schema = 'analytics' ORDER BY 1")
                .stream()
                .map(r -> (String) r.get(0))
                .toList();
        assertThat(views).contains("results", "leaderboard", "runs");
        Map<String, Long> before = analystCounts(views);
        List<List<Object>> indexes = indexesAndKeys(db);
        List<List<Object>> viewOids =
                db.rows("SELECT c.relname, c.oid::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                        + "WHERE n.nspname = 'analytics' ORDER BY 1");

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);

        assertThat(analystCounts(views)).isEqualTo(before);
        assertThat(db.one(
                        "SELECT has_table_privilege('podium_rebuild_reader', 'public.proj_leaderboard_row', 'SELECT')"))
                .isEqualTo(true);
        assertThat(db.one("SELECT has_table_privilege('podium_analyst', 'public.proj_run', 'SELECT')"))
                .isEqualTo(false);
        assertThat(indexesAndKeys(db)).isEqualTo(indexes);
        assertThat(db.rows(
                        "SELECT c.relname, c.oid::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                + "WHERE n.nspname = 'analytics' ORDER BY 1"))
                .isEqualTo(viewOids);
        assertThat(db.count("SELECT count(*) FROM pg_namespace WHERE nspname IN ('podium_shadow', 'podium_retired')"))
                .isZero();
    }

    @Test
    void ingestAndViewsKeepAnsweringDuringARebuildAndItCatchesUpWithWhatArrived() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("rebuild-live");
        var key = Histories.freshKey();
        CompletableFuture<Integer> rebuild;
        Map<String, List<String>> live;
        try (Connection updaterRound = dataSource.getConnection()) {
            // A change-point round that takes long: the rebuild replays and catches up, then waits for it before its
            // swap.
            updaterRound.setAutoCommit(false);
            try (Statement s = updaterRound.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + ChangePointUpdater.LOCK + ")");
            }
            rebuild = CompletableFuture.supplyAsync(() -> given().auth()
                    .oauth2(TestAgent.ADMIN_TOKEN)
                    .post("/admin/rebuild")
                    .statusCode());
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> db.count(
                                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                            + "AND NOT granted AND objid = ?::oid",
                                    UPDATER_LOCK_LOW)
                            >= 2);

            Histories.send(db, agent, key, 24, i -> i < 14 ? 300.0 : 270.0);
            assertThat(db.count("SELECT count(*) FROM proj_leaderboard_row WHERE key_id = ?", key.id()))
                    .isEqualTo(1);
            assertThat(db.count("SELECT count(*) FROM analytics.results WHERE key_id = ?", key.id()))
                    .isEqualTo(24);
            assertThat(rebuild).isNotDone();
            live = dumpAll(db);
            updaterRound.rollback();
        }
        assertThat(rebuild.get(120, TimeUnit.SECONDS)).isEqualTo(200);

        Map<String, List<String>> rebuilt = dumpAll(db);
        for (String table : Projections.TABLES) {
            if (!List.of("proj_change_point", "proj_history").contains(table)) {
                assertThat(rebuilt.get(table)).as(table).containsExactlyElementsOf(live.get(table));
            }
        }
        // The step of the history that arrived during the rebuild, found by the rebuild's catch-up.
        assertThat(db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()))
                .isEqualTo(1);
        assertThat(db.one("SELECT points FROM proj_history WHERE key_id = ?", key.id()))
                .isEqualTo(24);
    }

    /** What podium_analyst counts in each analytics view. */
    private Map<String, Long> analystCounts(List<String> views) throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL ROLE podium_analyst");
            for (String v : views) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM analytics." + v)) {
                    rs.next();
                    out.put(v, rs.getLong(1));
                }
            }
            c.rollback();
        }
        return out;
    }

    /** Every index and constraint of the read-model tables, by name and definition. */
    private static List<List<Object>> indexesAndKeys(Db db) {
        List<List<Object>> out = new ArrayList<>(db.rows(
                "SELECT tablename, indexname, indexdef FROM pg_indexes "
                        + "WHERE schemaname = 'public' AND tablename = ANY(?) ORDER BY 1, 2",
                (Object) Projections.TABLES.toArray(String[]::new)));
        out.addAll(db.rows(
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
                        + "WHERE conrelid::regclass::text = ANY(?) ORDER BY 1, 2",
                (Object) Projections.TABLES.toArray(String[]::new)));
        return out;
    }

    private static Map<String, List<String>> dumpAll(Db db) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String table : Projections.TABLES) {
            out.put(table, db.dump(table));
        }
        return out;
    }

    /** An admin hiding an entry or showing it again, as the command side appends it. */
    private static Envelope hidden(CatalogKind kind, String name, boolean hidden) {
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.admin(UUID.randomUUID()),
                1,
                null,
                Instant.parse("2026-03-02T11:00:00Z"),
                new CatalogEntryHidden(kind, name, hidden, "checked", "ops"));
    }
}
