package dev.podium.ingest.verify;

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
 * An enrolled agent with its own valid key, on a stream of its own, naming identities that are not its own: each record
 * is refused with its reason, and the victim's rows stay byte for byte as they were.
 */
@QuarkusTest
class IdentityBindingIT {

    @Inject
    AgroalDataSource dataSource;

    private Db db() {
        return new Db(dataSource);
    }

    @Test
    void aRunCompletedOnItsOwnStreamNamingAnotherAgentsRunChangesNoneOfThatRunsRows() {
        TestAgent victim = TestAgent.register("victim");
        TestAgent forger = TestAgent.register("forger");
        UUID victimRun = finishedRun(victim, 41);
        Map<String, List<String>> before = RunRows.of(db(), victimRun);
        assertThat(before.get("proj_result")).isNotEmpty();
        assertThat(before.get("proj_leaderboard_row")).isNotEmpty();

        UUID ownRun = UUID.randomUUID();
        RunCompleted lie = (RunCompleted)
                SampleEvents.runCompleted(victimRun, forger.agentId(), 1, List.of(99999.0, 99999.0, 99999.0))
                        .payload();
        Envelope forged = Envelope.of(UUID.randomUUID(), StreamId.run(ownRun), 1, forger.agentId(), Instant.now(), lie);
        Kafka.send(List.of(forger.signed(forged)));

        assertThat(reasonFor(forged))
                .isEqualTo("not the writer: payload.run_id: '" + victimRun + "' is not the run of stream 'run/" + ownRun
                        + "'");
        assertThat(RunRows.of(db(), victimRun)).isEqualTo(before);
        assertThat(db().count("SELECT count(*) FROM proj_run WHERE stream_id = ?", "run/" + ownRun))
                .isZero();
    }

    @Test
    void aRunStreamWithItsUuidInUpperCaseIsRejected() {
        TestAgent victim = TestAgent.register("victim");
        TestAgent forger = TestAgent.register("forger");
        UUID victimRun = finishedRun(victim, 42);
        Map<String, List<String>> before = RunRows.of(db(), victimRun);

        String upper = "run/" + victimRun.toString().toUpperCase(Locale.ROOT);
        Envelope completed =
                SampleEvents.runCompleted(victimRun, forger.agentId(), 1, List.of(99999.0, 99999.0, 99999.0));
        Envelope forged = new Envelope(
                UUID.randomUUID(),
                EventType.RunCompleted,
                1,
                upper,
                1,
                forger.agentId(),
                Instant.now(),
                completed.payload());
        Kafka.send(List.of(forger.signedBytes(upper, forger.encode(forged))));

        assertThat(reasonFor(forged))
                .isEqualTo(
                        "invalid: stream_id: '" + upper + "' is not a valid stream id: its UUID must be in lower case");
        assertThat(RunRows.of(db(), victimRun)).isEqualTo(before);
    }

    @Test
    void aClaimNamingAnotherAgentIsRejected() {
        TestAgent victim = TestAgent.register("victim");
        TestAgent forger = TestAgent.register("forger");
        UUID run = UUID.randomUUID();
        UUID job = UUID.randomUUID();
        Envelope claim = SampleEvents.jobClaimed(run, job, victim.agentId(), SampleEvents.POOL, Instant.now());
        Envelope forged = new Envelope(
                claim.eventId(),
                claim.type(),
                1,
                claim.streamId(),
                1,
                forger.agentId(),
                claim.occurredAt(),
                claim.payload());
        Kafka.send(List.of(forger.signed(forged)));

        assertThat(reasonFor(forged))
                .isEqualTo("not the writer: payload.agent_id: '" + victim.agentId() + "' is not the writer '"
                        + forger.agentId() + "'");
        assertThat(db().count("SELECT count(*) FROM proj_run WHERE run_id = ?", run))
                .isZero();
    }

    @Test
    void aRegistrationNamingAnotherBootIsRejected() {
        TestAgent agent = TestAgent.register("boots");
        UUID boot = UUID.randomUUID();
        Envelope registered =
                SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        Envelope forged = Envelope.of(
                UUID.randomUUID(),
                StreamId.agent(agent.agentId(), boot),
                1,
                agent.agentId(),
                Instant.now(),
                registered.payload());
        Kafka.send(List.of(agent.signed(forged)));

        assertThat(reasonFor(forged))
                .startsWith("not the writer: payload.boot_id: '")
                .endsWith("' is not the boot of stream 'agent/" + agent.agentId() + "/" + boot + "'");
        assertThat(db().count("SELECT count(*) FROM proj_agent WHERE agent_id = ?", agent.agentId()))
                .isZero();
    }

    /** A completed run of {@code agent}'s own, on a key of its own, stored and projected. */
    private UUID finishedRun(TestAgent agent, int workers) {
        UUID run = UUID.randomUUID();
        List<Envelope> events = SampleEvents.completedRun(
                run,
                agent.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(workers),
                Instant.now(),
                List.of(600.0, 601.0, 602.0));
        Kafka.send(events.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "completed"
                        .equals(db().rows("SELECT status FROM proj_run WHERE run_id = ?", run).stream()
                                .findFirst()
                                .map(r -> r.get(0))
                                .orElse(null)));
        return run;
    }

    private String reasonFor(Envelope e) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count(
                                        "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                        e.eventId().toString())
                        == 1);
        return (String) db().one(
                        "SELECT reason FROM rejected_event WHERE event_id = ?",
                        e.eventId().toString());
    }
}
