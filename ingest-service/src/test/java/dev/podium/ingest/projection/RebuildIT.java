package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Truncating the read models and replaying the event store gives the very same rows. */
@QuarkusTest
class RebuildIT {

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
        events.add(SampleEvents.runStartedForJob(firstEpochRun, jobId, 1, 2, agent.agentId(), "intel-gaudi2",
                SampleEvents.referenceKey(1), Instant.now()));
        events.add(SampleEvents.runCompleted(firstEpochRun, agent.agentId(), 3, List.of(610.0, 611.0, 612.0)));
        events.add(SampleEvents.jobClaimed(secondEpochRun, jobId, agent.agentId(), SampleEvents.POOL, Instant.now()));
        events.add(SampleEvents.runStartedForJob(secondEpochRun, jobId, 2, 2, agent.agentId(), "intel-gaudi2",
                SampleEvents.referenceKey(1), Instant.now()));
        events.add(SampleEvents.runCompleted(secondEpochRun, agent.agentId(), 3, List.of(600.0, 601.0, 602.0)));
        events.addAll(SampleEvents.completedRun(retractedRun, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(1),
                Instant.now(), List.of(700.0, 702.0, 704.0)));
        events.addAll(SampleEvents.completedRun(UUID.randomUUID(), agent.agentId(), "amd-mi300x", SampleEvents.referenceKey(1),
                Instant.now(), List.of(500.0, 501.0, 502.0)));
        events.add(SampleEvents.runStarted(failedRun, agent.agentId(), "amd-mi300x", SampleEvents.referenceKey(2),
                Instant.now()));
        events.add(SampleEvents.runFailed(failedRun, agent.agentId(), 2, "measure", "out of memory"));
        List<ProducerRecord<byte[], byte[]>> records = events.stream().map(agent::signed).toList();
        Kafka.send(records);
        await().atMost(Duration.ofSeconds(60)).until(() ->
                db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId()) == events.size());

        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            appender.append(c, List.of(
                    SampleEvents.jobAssigned(jobId, secondEpochRun, agent.agentId(), 2, 1, Instant.now()),
                    Envelope.of(UUID.randomUUID(), StreamId.admin(UUID.randomUUID()), 1, null, Instant.now(),
                            new ResultRetracted(retractedRun, "throttled", "ops")),
                    SampleEvents.publishedClaimImported(SampleEvents.gaudi2Workers0Claim(), 1)), "command:ops");
            c.commit();
        }
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", firstEpochRun)).isEqualTo("superseded");
        assertThat(db.one("SELECT retracted FROM proj_run WHERE run_id = ?", retractedRun)).isEqualTo(true);
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", failedRun)).isEqualTo("failed");
        assertThat(db.count("SELECT count(*) FROM proj_leaderboard_row WHERE source = 'published'")).isPositive();
        // The page cells of a plain completed run; the gaudi2 runs were superseded or retracted.
        assertThat(db.count("SELECT count(*) FROM proj_comparison_cell WHERE device_id = 'amd-mi300x' AND runs = 1 "
                + "AND values_n = 3 AND means_n = 1 AND failing_runs = 0")).as(db.dump("proj_comparison_cell").toString()).isPositive();
        assertThat(db.count("SELECT count(*) FROM proj_leaderboard_version_row WHERE device_id = 'amd-mi300x' AND runs = 1 "
                + "AND framework_version = ?", SampleEvents.software().frameworkVersion())).isPositive();

        Map<String, List<String>> before = dumpAll(db);
        assertThat(before.values()).allSatisfy(rows -> assertThat(rows).isNotEmpty());

        long replayed = given().auth().oauth2(TestAgent.ADMIN_TOKEN).post("/admin/rebuild")
                .then().statusCode(200).extract().jsonPath().getLong("replayed_events");
        assertThat(replayed).isEqualTo(db.count("SELECT count(*) FROM event_store"));

        Map<String, List<String>> after = dumpAll(db);
        for (String table : Projections.TABLES) {
            List<String> lost = new ArrayList<>(before.get(table));
            lost.removeAll(after.get(table));
            List<String> gained = new ArrayList<>(after.get(table));
            gained.removeAll(before.get(table));
            assertThat(lost).as(table + ": rows before the rebuild and not after").isEmpty();
            assertThat(gained).as(table + ": rows after the rebuild and not before").isEmpty();
            assertThat(after.get(table)).as(table).containsExactlyElementsOf(before.get(table));
        }
    }

    private static Map<String, List<String>> dumpAll(Db db) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String table : Projections.TABLES) {
            out.put(table, db.dump(table));
        }
        return out;
    }
}
