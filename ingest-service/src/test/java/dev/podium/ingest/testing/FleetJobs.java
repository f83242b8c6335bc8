package dev.podium.ingest.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobEvent;
import dev.podium.events.sign.CommandSignature;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.heartbeat.Heartbeat;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What the fleet tests do as admins and agents on a running ingest: submit campaigns, claim jobs with signed JobClaimed,
 * send signed heartbeats, and read podium.jobs verified as agents verify it.
 */
public final class FleetJobs {

    public static final String JOBS = "podium.jobs";
    public static final Duration WAIT = Duration.ofSeconds(60);
    private static final EventCodec CODEC = new EventCodec();

    private FleetJobs() {}

    public static String pool(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static Map<String, Object> spec(Map<String, List<String>> matrix) {
        return spec(matrix, 900, 3);
    }

    /** A reference job spec of this matrix, timeout and repetitions (the lease deadline follows from the last two). */
    public static Map<String, Object> spec(Map<String, List<String>> matrix, int timeoutSeconds, int repetitions) {
        return Map.of(
                "benchmark",
                "reference-finetune",
                "adapter",
                "reference",
                "parameters",
                Map.of("epochs", "1"),
                "matrix",
                matrix,
                "repetitions",
                repetitions,
                "warmup_steps",
                5,
                "timeout_seconds",
                timeoutSeconds,
                "environment",
                Map.of(),
                "nodes",
                1,
                "devices_per_node",
                1);
    }

    public static JsonPath submit(Map<String, Object> campaign) {
        return given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign)
                .post("/admin/campaigns")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    public static List<UUID> uuids(List<String> ids) {
        return ids.stream().map(UUID::fromString).toList();
    }

    /** A job of a new pool, claimed by a new agent whose key is bound to that pool, and granted to its run. */
    public record Granted(UUID job, TestAgent agent, UUID run) {}

    public static Granted granted(String name) {
        String pool = pool(name);
        UUID job = uuids(submit(Map.of("name", name, "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent agent = TestAgent.register("fleet-" + name, pool);
        UUID run = claim(agent, job, pool);
        await().atMost(WAIT)
                .until(() -> !onJobsTopic(List.of(job), JobAssigned.class).isEmpty());
        return new Granted(job, agent, run);
    }

    /** JobClaimed as seq 1 of a new run stream, as an agent of {@code pool} answers a JobRequested; the run id. */
    public static UUID claim(TestAgent agent, UUID job, String pool) {
        UUID run = UUID.randomUUID();
        Kafka.send(List.of(agent.signed(SampleEvents.jobClaimed(run, job, agent.agentId(), pool, Instant.now()))));
        return run;
    }

    /**
     * The envelopes of {@code type} about {@code jobs} now on podium.jobs, in offset order per job; each verified as
     * agents verify it, against the command side's public key.
     */
    public static List<Envelope> onJobsTopic(List<UUID> jobs, Class<? extends JobEvent> type) {
        return signedOnJobsTopic(jobs, type).stream().map(Signed::envelope).toList();
    }

    /** A record of podium.jobs and the lease epoch its command signature binds. */
    public record Signed(Envelope envelope, int epoch) {}

    public static List<Signed> signedOnJobsTopic(List<UUID> jobs, Class<? extends JobEvent> type) {
        Set<String> keys = jobs.stream().map(UUID::toString).collect(Collectors.toSet());
        PublicKey command = CommandSignature.publicKey(given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/command-key")
                .then()
                .statusCode(200)
                .extract()
                .<String>path("command_public_key"));
        List<Signed> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : Kafka.readAll(JOBS)) {
            if (r.key() != null && keys.contains(new String(r.key(), StandardCharsets.UTF_8))) {
                // Agents validate what they read: every record must decode as a valid event.
                Decoded d = CODEC.decode(r.value());
                assertThat(d)
                        .as("record %d/%d of podium.jobs", r.partition(), r.offset())
                        .isInstanceOf(Decoded.Accepted.class);
                Envelope e = ((Decoded.Accepted) d).envelope();
                assertThat(e.agentId()).isNull();
                String epoch = header(r, CommandSignature.EPOCH_HEADER);
                assertThat(CommandSignature.verify(
                                command,
                                (JobEvent) e.payload(),
                                Integer.parseInt(epoch),
                                r.value(),
                                header(r, CommandSignature.SIGNATURE_HEADER)))
                        .as("the command signature of %s", e.payload())
                        .isTrue();
                if (type.isInstance(e.payload())) {
                    out.add(new Signed(e, Integer.parseInt(epoch)));
                }
            }
        }
        return out;
    }

    public static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    public static ProducerRecord<byte[], byte[]> heartbeat(TestAgent agent, UUID job, UUID run, int epoch)
            throws Exception {
        byte[] value = EventCodec.newMapper()
                .writeValueAsBytes(new Heartbeat(
                        agent.agentId(),
                        UUID.randomUUID(),
                        null,
                        "running",
                        job,
                        run,
                        epoch,
                        null,
                        null,
                        null,
                        Instant.now(),
                        1L));
        RecordHeaders headers = new RecordHeaders();
        headers.add(EventSigner.KEY_ID_HEADER, agent.keyId().getBytes(StandardCharsets.UTF_8));
        headers.add(
                EventSigner.SIGNATURE_HEADER,
                EventSigner.signHeartbeat(value, EventSigner.secretBytes(agent.secret()))
                        .getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(
                "podium.heartbeats", null, agent.agentId().getBytes(StandardCharsets.UTF_8), value, headers);
    }
}
