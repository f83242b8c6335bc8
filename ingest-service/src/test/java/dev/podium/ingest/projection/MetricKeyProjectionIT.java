package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.Retractions;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The devices per key and metric follow the leaderboard rows batch by batch: a device joins its key's list with its
 * first counted run, a second run changes nothing, and a device leaves when its last run stops counting; the key's row
 * goes with its last device. An enrolled agent cannot put its device in another agent's run.
 */
@QuarkusTest
class MetricKeyProjectionIT {

    private static final String GAUDI = "intel-gaudi2";
    private static final String H100 = "nvidia-h100-sxm";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Test
    void aKeysDevicesAreThoseWithLeaderboardRows() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("metric-keys");
        ComparisonKey key = SampleEvents.referenceKey(7411);

        UUID gaudiRun = UUID.randomUUID();
        agent.sendAndWait(db, run(gaudiRun, agent, GAUDI, key));
        assertThat(devices(db, key)).containsExactly("{" + GAUDI + "}");

        UUID h100Run = UUID.randomUUID();
        agent.sendAndWait(db, run(h100Run, agent, H100, key));
        agent.sendAndWait(db, run(UUID.randomUUID(), agent, H100, key));
        assertThat(devices(db, key)).containsExactly("{" + GAUDI + "," + H100 + "}");

        Retractions.retract(dataSource, appender, gaudiRun);
        assertThat(devices(db, key)).containsExactly("{" + H100 + "}");
        assertThat(differencesFromLeaderboard(db)).isZero();

        for (List<Object> r : db.rows(
                "SELECT run_id FROM proj_run WHERE device_id = ? AND key_id = ? AND NOT retracted", H100, key.id())) {
            Retractions.retract(dataSource, appender, (UUID) r.get(0));
        }
        assertThat(devices(db, key)).isEmpty();
        assertThat(differencesFromLeaderboard(db)).isZero();
    }

    @Test
    void anEnrolledAgentThatSendsAnotherAgentsRunOnItsOwnDeviceAddsNoDevice() throws Exception {
        Db db = new Db(dataSource);
        TestAgent owner = TestAgent.register("metric-keys-owner");
        TestAgent intruder = TestAgent.register("metric-keys-intruder");
        ComparisonKey key = SampleEvents.referenceKey(7412);
        UUID run = UUID.randomUUID();
        owner.sendAndWait(db, run(run, owner, GAUDI, key));

        // Correctly signed by an enrolled key, but the run is the owner's: the same run on an H100, better figures.
        List<Envelope> hijack = SampleEvents.completedRun(
                run, intruder.agentId(), H100, key, Instant.now(), List.of(9999.0, 9999.0, 9999.0));
        Kafka.send(hijack.stream().map(intruder::signed).toList());
        String last = hijack.get(hijack.size() - 1).eventId().toString();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM rejected_event WHERE event_id = ?", last) == 1);

        assertThat(db.count("SELECT count(*) FROM event_store WHERE writer = ?", intruder.agentId()))
                .isZero();
        assertThat(devices(db, key)).containsExactly("{" + GAUDI + "}");
        assertThat(differencesFromLeaderboard(db)).isZero();
    }

    private static List<Envelope> run(UUID run, TestAgent agent, String device, ComparisonKey key) {
        return SampleEvents.completedRun(run, agent.agentId(), device, key, Instant.now(), List.of(100.0, 101.0, 99.0));
    }

    /** The key's device lists, one per metric and source, as text. */
    private static List<String> devices(Db db, ComparisonKey key) {
        return db.rows("SELECT DISTINCT device_ids::text FROM proj_metric_key WHERE key_id = ?", key.id()).stream()
                .map(r -> (String) r.get(0))
                .toList();
    }

    /** Rows the table holds but the leaderboard rows do not give, and the other way round. */
    private static long differencesFromLeaderboard(Db db) {
        return db.count("""
                WITH expected AS (
                    SELECT benchmark, metric, key_id, source, array_agg(device_id ORDER BY device_id) AS device_ids
                    FROM proj_leaderboard_row GROUP BY benchmark, metric, key_id, source)
                SELECT count(*) FROM (
                    (SELECT benchmark, metric, key_id, source, device_ids FROM proj_metric_key EXCEPT SELECT * FROM expected)
                    UNION ALL
                    (SELECT * FROM expected
                     EXCEPT SELECT benchmark, metric, key_id, source, device_ids FROM proj_metric_key)) AS d""");
    }
}
