package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.RunRows;
import dev.podium.ingest.testing.StoredBefore;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A store that already holds events naming another writer's run (stored before ingest refused them): a rebuild gives
 * the rows the identity rules allow, so the victim's rows are as they were.
 */
@QuarkusTest
class RebuildBindingIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRebuildOverStoredForgeriesLeavesTheVictimsRowsAsTheyWere() throws Exception {
        Db db = new Db(dataSource);
        TestAgent victim = TestAgent.register("victim");
        TestAgent forger = TestAgent.register("forger");
        UUID victimRun = UUID.randomUUID();
        List<Envelope> events = SampleEvents.completedRun(
                victimRun,
                victim.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(43),
                Instant.now(),
                List.of(600.0, 601.0, 602.0));
        Kafka.send(events.stream().map(victim::signed).toList());
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", victimRun)
                                == 1);
        Map<String, List<String>> before = RunRows.of(db, victimRun);

        RunCompleted lie = (RunCompleted)
                SampleEvents.runCompleted(victimRun, forger.agentId(), 1, List.of(99999.0, 99999.0, 99999.0))
                        .payload();
        UUID ownRun = UUID.randomUUID();
        StoredBefore.append(
                dataSource,
                Envelope.of(UUID.randomUUID(), StreamId.run(ownRun), 1, forger.agentId(), Instant.now(), lie),
                forger.agentId());
        StoredBefore.append(
                dataSource,
                new Envelope(
                        UUID.randomUUID(),
                        EventType.RunCompleted,
                        1,
                        "run/" + victimRun.toString().toUpperCase(Locale.ROOT),
                        1,
                        forger.agentId(),
                        Instant.now(),
                        lie),
                forger.agentId());

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);

        assertThat(RunRows.of(db, victimRun)).isEqualTo(before);
        assertThat(db.count(
                        "SELECT count(*) FROM proj_run WHERE stream_id <> ? AND run_id = ?",
                        "run/" + victimRun,
                        victimRun))
                .isZero();
    }
}
