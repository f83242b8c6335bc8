package dev.podium.ingest.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Who may write what: keys, agents and stream owners, end to end through Kafka. */
@QuarkusTest
class VerificationIT {

    @Inject
    AgroalDataSource dataSource;

    private Db db() {
        return new Db(dataSource);
    }

    @Test
    void anEventSignedWithAnotherAgentsKeyIsRejected() {
        TestAgent alice = TestAgent.register("alice");
        TestAgent mallory = TestAgent.register("mallory");
        Envelope forged =
                SampleEvents.agentRegistered(alice.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        Kafka.send(List.of(mallory.signed(forged)));
        assertThat(reasonFor(forged))
                .startsWith("not the writer: agent_id '" + alice.agentId() + "' is not the agent of key");
        assertThat(stored(forged)).isFalse();
    }

    @Test
    void anEventOnARunStreamOwnedByAnotherAgentIsRejected() {
        TestAgent owner = TestAgent.register("owner");
        TestAgent intruder = TestAgent.register("intruder");
        UUID run = UUID.randomUUID();
        Envelope started = SampleEvents.runStarted(
                run, owner.agentId(), "intel-gaudi2", SampleEvents.referenceKey(0), Instant.now());
        Kafka.send(List.of(owner.signed(started)));
        await().atMost(Duration.ofSeconds(30)).until(() -> stored(started));
        Envelope hijack = SampleEvents.runCompleted(run, intruder.agentId(), 2, List.of(9999.0, 9999.0, 9999.0));
        Kafka.send(List.of(intruder.signed(hijack)));
        assertThat(reasonFor(hijack))
                .isEqualTo("not the writer: run/" + run + " is owned by agent '" + owner.agentId() + "', not '"
                        + intruder.agentId() + "'");
        assertThat(db().count("SELECT count(*) FROM proj_result WHERE run_id = ?", run))
                .isZero();
    }

    @Test
    void anAgentStreamNamingAnotherAgentIsRejected() {
        TestAgent alice = TestAgent.register("alice");
        TestAgent mallory = TestAgent.register("mallory");
        // Mallory's own agent_id, but on Alice's agent stream.
        Envelope e = Envelope.of(
                UUID.randomUUID(),
                StreamId.agent(alice.agentId(), UUID.randomUUID()),
                1,
                mallory.agentId(),
                Instant.now(),
                SampleEvents.agentRegistered(mallory.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now())
                        .payload());
        Kafka.send(List.of(mallory.signed(e)));
        assertThat(reasonFor(e)).contains("does not own stream");
    }

    @Test
    void aCommandSideStreamArrivingOnKafkaIsRejected() {
        TestAgent agent = TestAgent.register("sneaky");
        Envelope assign =
                SampleEvents.jobAssigned(UUID.randomUUID(), UUID.randomUUID(), agent.agentId(), 7, 1, Instant.now());
        Envelope withWriter = new Envelope(
                assign.eventId(),
                assign.type(),
                1,
                assign.streamId(),
                1,
                agent.agentId(),
                assign.occurredAt(),
                assign.payload());
        Kafka.send(List.of(agent.signed(withWriter)));
        assertThat(reasonFor(withWriter)).contains("is written by ingest's command side only");
    }

    @Test
    void aRevokedKeyIsRejected() {
        TestAgent agent = TestAgent.register("revoked");
        agent.revoke();
        Envelope e = SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        Kafka.send(List.of(agent.signed(e)));
        assertThat(reasonFor(e)).isEqualTo("forged: key " + agent.keyId() + " is revoked");
        assertThat(stored(e)).isFalse();
    }

    @Test
    void aRetiredKeyStillVerifiesWhatItSignedBeforeTheRotation() {
        TestAgent agent = TestAgent.register("rotating");
        UUID run = UUID.randomUUID();
        List<Envelope> events = SampleEvents.completedRun(
                run,
                agent.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(0),
                Instant.now(),
                List.of(1.0, 2.0, 3.0));
        var signedBefore = List.of(agent.signed(events.get(0)), agent.signed(events.get(1)));
        TestAgent old = agent.rotate();
        assertThat(old.keyId()).isNotEqualTo(agent.keyId());
        Kafka.send(signedBefore);
        Kafka.send(List.of(agent.signed(events.get(2))));
        await().atMost(Duration.ofSeconds(30)).until(() -> events.stream().allMatch(this::stored));
        assertThat(db().rows("SELECT DISTINCT key_id FROM event_store WHERE stream_id = ? ORDER BY 1", "run/" + run))
                .extracting(r -> r.get(0))
                .containsExactlyInAnyOrder(old.keyId(), agent.keyId());
        assertThat(db().one("SELECT status FROM agent_key WHERE key_id = ?", old.keyId()))
                .isEqualTo("retired");
    }

    @Test
    void aRetiredKeyPastItsGracePeriodVerifiesNothing() {
        TestAgent agent = TestAgent.register("graceful");
        TestAgent old = agent.rotate();
        // The grace period is judged by the broker's append time; here it ended a day ago.
        db().execute(
                        "UPDATE agent_key SET retired_at = clock_timestamp() - interval '25 hours' WHERE key_id = ?",
                        old.keyId());
        Envelope e = SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        Kafka.send(List.of(old.signed(e)));
        assertThat(reasonFor(e)).isEqualTo("forged: key " + old.keyId() + " is retired and past its grace period");
        assertThat(stored(e)).isFalse();
        Envelope fresh =
                SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        Kafka.send(List.of(agent.signed(fresh)));
        await().atMost(Duration.ofSeconds(30)).until(() -> stored(fresh));
    }

    @Test
    void anAgentHasAtMostOneActiveKeyByAConstraintOfTheDatabase() {
        TestAgent agent = TestAgent.register("one-active");
        assertThatThrownBy(() -> db().execute("""
                INSERT INTO agent_key (key_id, agent_id, secret_ciphertext, secret_nonce, status, issued_by, pool)
                VALUES ('pk_second', ?, '\\x00', '\\x00', 'active', 'test', 'default')""", agent.agentId())).hasMessageContaining("agent_key_one_active");
        agent.rotate();
        assertThat(db().count(
                                "SELECT count(*) FROM agent_key WHERE agent_id = ? AND status = 'active'",
                                agent.agentId()))
                .isEqualTo(1);
    }

    private boolean stored(Envelope e) {
        return db().count("SELECT count(*) FROM event_store WHERE event_id = ?", e.eventId()) == 1;
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
