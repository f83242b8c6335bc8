package dev.podium.ingest.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Signed heartbeats update agent_status; bad ones are dropped, counted and never stored. */
@QuarkusTest
class HeartbeatIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MeterRegistry registry;

    @Test
    void aSignedHeartbeatUpdatesTheAgentsStatusAndBadOnesAreDropped() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("beat");
        TestAgent other = TestAgent.register("other");
        UUID run = UUID.randomUUID();
        byte[] good = json(new Heartbeat(
                agent.agentId(),
                UUID.randomUUID(),
                "gaudi2",
                "running",
                UUID.randomUUID(),
                run,
                2,
                "intel-gaudi2",
                "host-1",
                Map.of("power_w", 412.5, "hpu0_temp_c", 61.0),
                Instant.now(),
                1L));
        byte[] impostor = json(
                new Heartbeat(other.agentId(), null, null, "idle", null, null, null, null, null, null, null, null));
        double droppedBefore = dropped();

        Kafka.send(List.of(
                heartbeat(other.agentId(), impostor, agent.keyId(), sign(impostor, agent)), // other's id, agent's key
                heartbeat(other.agentId(), impostor, null, null), // unsigned
                heartbeat(other.agentId(), impostor, other.keyId(), sign(good, other)), // signature of other bytes
                heartbeat(
                        other.agentId(),
                        "{not json".getBytes(StandardCharsets.UTF_8),
                        other.keyId(),
                        sign("{not json".getBytes(StandardCharsets.UTF_8), other)),
                heartbeat(agent.agentId(), good, agent.keyId(), sign(good, agent))));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> db.count("SELECT count(*) FROM agent_status WHERE agent_id = ?", agent.agentId()) == 1
                        && dropped() - droppedBefore >= 4);
        assertThat(dropped() - droppedBefore).isEqualTo(4.0);
        assertThat(db.rows("""
                SELECT state, pool, current_run_id, lease_epoch, device_id, (sensors->>'power_w')::float8,
                       last_heartbeat_at > now() - interval '1 minute'
                FROM agent_status WHERE agent_id = ?""", agent.agentId()))
                .containsExactly(List.of("running", "gaudi2", run, 2, "intel-gaudi2", 412.5, true));
        assertThat(db.count("SELECT count(*) FROM agent_status WHERE agent_id = ?", other.agentId()))
                .isZero();
    }

    @Test
    void anEventRecordReplayedAsAHeartbeatDoesNotVerify() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("replayed");
        ProducerRecord<byte[], byte[]> event = agent.signed(dev.podium.events.testing.SampleEvents.agentRegistered(
                agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now()));
        double droppedBefore = dropped();
        Kafka.send(List.of(new ProducerRecord<>(
                "podium.heartbeats",
                null,
                agent.agentId().getBytes(StandardCharsets.UTF_8),
                event.value(),
                event.headers())));
        await().atMost(Duration.ofSeconds(30)).until(() -> dropped() - droppedBefore >= 1);
        assertThat(db.count("SELECT count(*) FROM agent_status WHERE agent_id = ?", agent.agentId()))
                .isZero();
    }

    @Test
    void aHeartbeatNotNewerThanTheLastOneStoredIsDropped() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("seq");
        UUID boot = UUID.randomUUID();
        byte[] second = json(new Heartbeat(
                agent.agentId(), boot, "p", "running", null, null, null, null, null, null, Instant.now(), 2L));
        byte[] first = json(new Heartbeat(
                agent.agentId(), boot, "p", "idle", null, null, null, null, null, null, Instant.now(), 1L));
        double droppedBefore = dropped();
        Kafka.send(List.of(
                heartbeat(agent.agentId(), second, agent.keyId(), sign(second, agent)),
                heartbeat(agent.agentId(), first, agent.keyId(), sign(first, agent)),
                heartbeat(agent.agentId(), second, agent.keyId(), sign(second, agent))));
        await().atMost(Duration.ofSeconds(30)).until(() -> dropped() - droppedBefore >= 2);
        assertThat(db.rows("SELECT state, heartbeat_seq FROM agent_status WHERE agent_id = ?", agent.agentId()))
                .containsExactly(List.of("running", 2L));
    }

    private double dropped() {
        var counter = registry.find("podium.ingest.heartbeats")
                .tag("outcome", "dropped")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static byte[] json(Heartbeat hb) throws Exception {
        return EventCodec.newMapper().writeValueAsBytes(hb);
    }

    private static String sign(byte[] value, TestAgent agent) {
        return EventSigner.signHeartbeat(value, EventSigner.secretBytes(agent.secret()));
    }

    private static ProducerRecord<byte[], byte[]> heartbeat(String key, byte[] value, String keyId, String signature) {
        RecordHeaders headers = new RecordHeaders();
        if (keyId != null) {
            headers.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
            headers.add(EventSigner.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>("podium.heartbeats", null, key.getBytes(StandardCharsets.UTF_8), value, headers);
    }
}
