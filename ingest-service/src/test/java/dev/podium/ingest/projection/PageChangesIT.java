package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.store.PageChannel;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Each batch announces, on commit, the benchmarks and runs whose pages it changed, so query-service drops only those
 * from its cache; a benchmark no page listed yet, and a rebuild's swap, announce every page; a round of the change-point
 * updater announces the steps and the benchmarks of the histories it rewrote.
 */
@QuarkusTest
class PageChangesIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Rebuilder rebuilder;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @Test
    void aBatchAnnouncesTheBenchmarksItChanged() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("pages");
        ComparisonKey key = key("pages-" + UUID.randomUUID().toString().substring(0, 8));
        try (Connection listener = listen()) {
            sendCompleted(db, agent, key, UUID.randomUUID(), List.of(99.0, 100.0, 101.0));
            assertThat(heard(listener, PageChannel.ALL))
                    .as("a new benchmark: every page lists it")
                    .contains(PageChannel.ALL);

            UUID second = UUID.randomUUID();
            sendCompleted(db, agent, key, second, List.of(199.0, 200.0, 201.0));
            assertThat(heard(listener, PageChannel.run(second)))
                    .contains(key.benchmark(), PageChannel.run(second))
                    .doesNotContain(PageChannel.ALL);
        }
    }

    @Test
    void aRunStillRunningAnnouncesItsOwnPageOnly() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("pages-running");
        ComparisonKey key = key("pages-" + UUID.randomUUID().toString().substring(0, 8));
        try (Connection listener = listen()) {
            sendCompleted(db, agent, key, UUID.randomUUID(), List.of(1.0, 2.0));
            assertThat(heard(listener, PageChannel.STEPS, key.benchmark()))
                    .as("the batch (a new benchmark), then the round that folded the completed run in")
                    .contains(PageChannel.ALL, PageChannel.STEPS, key.benchmark());

            UUID running = UUID.randomUUID();
            send(
                    db,
                    agent,
                    List.of(
                            SampleEvents.runStarted(running, agent.agentId(), "amd-mi300x", key, Instant.now()),
                            SampleEvents.runProgress(running, agent.agentId(), 2, 1, 5, 10)));
            assertThat(heard(listener, PageChannel.run(running)))
                    .contains(PageChannel.run(running))
                    .doesNotContain(key.benchmark(), PageChannel.ALL);
        }
    }

    @Test
    void aRecordSignedByAnEnrolledAgentOnAnotherAgentsRunAnnouncesNothing() throws Exception {
        Db db = new Db(dataSource);
        TestAgent owner = TestAgent.register("pages-owner");
        TestAgent intruder = TestAgent.register("pages-intruder");
        ComparisonKey key = key("pages-" + UUID.randomUUID().toString().substring(0, 8));
        UUID run = UUID.randomUUID();
        try (Connection listener = listen()) {
            send(db, owner, List.of(SampleEvents.runStarted(run, owner.agentId(), "amd-mi300x", key, Instant.now())));
            assertThat(heard(listener, PageChannel.ALL))
                    .as("a new benchmark: every page, its run's among them")
                    .contains(PageChannel.ALL);

            Envelope hijack = SampleEvents.runCompleted(run, intruder.agentId(), 2, List.of(9999.0, 9999.0, 9999.0));
            Kafka.send(List.of(intruder.signed(hijack)));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> db.count(
                                    "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                    hijack.eventId().toString())
                            == 1);
            // Notifications arrive in commit order: once the intruder's own run is heard, the refused one would have
            // been.
            UUID own = UUID.randomUUID();
            send(
                    db,
                    intruder,
                    List.of(SampleEvents.runStarted(own, intruder.agentId(), "amd-mi300x", key, Instant.now())));
            assertThat(heard(listener, PageChannel.run(own)))
                    .contains(PageChannel.run(own))
                    .doesNotContain(PageChannel.run(run), key.benchmark());
        }
    }

    @Test
    void aRebuildAnnouncesEveryPage() throws Exception {
        try (Connection listener = listen()) {
            rebuilder.rebuild();
            assertThat(heard(listener, PageChannel.ALL)).contains(PageChannel.ALL);
        }
    }

    private static ComparisonKey key(String benchmark) {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader_num_workers", "0");
        return new ComparisonKey(benchmark, "1", "training", "tiny-transformer-classifier", "fp32", 32, 1, 128, extra);
    }

    private Connection listen() throws SQLException {
        Connection c = DriverManager.getConnection(url, "postgres", "");
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + PageChannel.NAME);
        }
        return c;
    }

    /** The payloads heard until every one {@code expected} is among them (at most 60 s). */
    private static Set<String> heard(Connection listener, String... expected) throws SQLException {
        Set<String> heard = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!heard.containsAll(List.of(expected)) && System.nanoTime() < deadline) {
            PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications(500);
            if (got != null) {
                for (PGNotification n : got) {
                    heard.add(n.getParameter());
                }
            }
        }
        return heard;
    }

    private static void sendCompleted(Db db, TestAgent agent, ComparisonKey key, UUID run, List<Double> values) {
        send(db, agent, SampleEvents.completedRun(run, agent.agentId(), "amd-mi300x", key, Instant.now(), values));
    }

    private static void send(Db db, TestAgent agent, List<Envelope> events) {
        long stored = db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId());
        Kafka.send(new ArrayList<>(events.stream().map(agent::signed).toList()));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                        == stored + events.size());
    }
}
