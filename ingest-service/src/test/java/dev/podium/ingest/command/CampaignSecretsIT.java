package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;

import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.secret.JobSecrets;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.request.NewCampaignRequest;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Secret campaign environment values: stored only encrypted, in no event, topic record or API answer in clear, and sent
 * to the granted agent only, sealed in its JobAssigned; another agent's key does not open them.
 */
@QuarkusTest
class CampaignSecretsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final EventCodec CODEC = new EventCodec();

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aSecretReachesOnlyTheGrantedAgentSealedAndIsNowhereInClear() throws Exception {
        Db db = new Db(dataSource);
        String secret = "hf_" + UUID.randomUUID().toString().replace("-", "");
        String pool = "secret-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> body = campaign(pool, Map.of("OMP_NUM_THREADS", "2"), Map.of("HF_TOKEN", secret));
        String created = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/campaigns")
                .then()
                .statusCode(201)
                .extract()
                .asString();
        assertThat(created).doesNotContain(secret);
        JsonPath c = JsonPath.from(created);
        UUID job = UUID.fromString(c.getList("job_ids", String.class).get(0));

        TestAgent granted = TestAgent.register("secret-granted", pool);
        TestAgent other = TestAgent.register("secret-other", pool);
        UUID run = UUID.randomUUID();
        Kafka.send(List.of(granted.signed(SampleEvents.jobClaimed(run, job, granted.agentId(), pool, Instant.now()))));
        JobAssigned grant = await().atMost(WAIT)
                .until(() -> assigned(job), Optional::isPresent)
                .orElseThrow();

        assertThat(grant.secrets()).isNotNull();
        assertThat(grant.secrets().keyId()).isEqualTo(granted.keyId());
        assertThat(JobSecrets.open(grant.secrets(), EventSigner.secretBytes(granted.secret()), job, run, 1))
                .isEqualTo(Map.of("HF_TOKEN", secret));
        assertThatThrownBy(() -> JobSecrets.open(grant.secrets(), EventSigner.secretBytes(other.secret()), job, run, 1))
                .isInstanceOf(GeneralSecurityException.class);

        // Nowhere in clear: topic records, the event store, the analytics views, command tables, the admin API.
        for (ConsumerRecord<byte[], byte[]> r : Kafka.readAll("podium.jobs")) {
            assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain(secret);
        }
        assertThat(db.count("SELECT count(*) FROM event_store WHERE payload::text LIKE ?", "%" + secret + "%"))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM analytics.events WHERE payload::text LIKE ?", "%" + secret + "%"))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM outbox WHERE convert_from(value, 'UTF8') LIKE ?", "%" + secret + "%"))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM campaign WHERE spec::text LIKE ?", "%" + secret + "%"))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM job WHERE spec::text LIKE ?", "%" + secret + "%"))
                .isZero();
        assertThat(db.count(
                        "SELECT count(*) FROM campaign_secret WHERE position(convert_to(?, 'UTF8') in ciphertext) > 0",
                        secret))
                .isZero();
        String shown = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/campaigns/" + c.getString("campaign_id"))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(shown).doesNotContain(secret);
        assertThat(JsonPath.from(shown).getList("secret_names", String.class)).containsExactly("HF_TOKEN");
        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .get("/admin/jobs/" + job)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .doesNotContain(secret);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + job + "/cancel")
                .then()
                .statusCode(200);
    }

    @Test
    void aCampaignWithoutSecretsGrantsWithoutThem() {
        String pool = "nosecret-" + UUID.randomUUID().toString().substring(0, 8);
        UUID job = UUID.fromString(given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign(pool, Map.of(), null))
                .post("/admin/campaigns")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getList("job_ids", String.class)
                .get(0));
        TestAgent agent = TestAgent.register("nosecret", pool);
        Kafka.send(List.of(
                agent.signed(SampleEvents.jobClaimed(UUID.randomUUID(), job, agent.agentId(), pool, Instant.now()))));
        assertThat(await().atMost(WAIT)
                        .until(() -> assigned(job), Optional::isPresent)
                        .orElseThrow()
                        .secrets())
                .isNull();
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + job + "/cancel")
                .then()
                .statusCode(200);
    }

    @Test
    void badSecretsAreRefusedWithoutEchoingTheirValues() {
        String value = "v4lue-" + UUID.randomUUID();
        for (Map<String, Object> secrets : List.<Map<String, Object>>of(
                Map.of("NOT A NAME", value),
                Map.of("1TOKEN", value),
                Map.of("TOKEN", List.of(value)),
                Map.of("TOKEN", ""),
                Map.of("TOKEN", "a\u0000" + value))) {
            String answer = given().auth()
                    .oauth2(TestAgent.ADMIN_TOKEN)
                    .contentType(ContentType.JSON)
                    .body(campaign("bad-secrets", Map.of(), secrets))
                    .post("/admin/campaigns")
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .extract()
                    .asString();
            assertThat(answer).as("%s", secrets.keySet()).doesNotContain(value);
            assertThat(JsonPath.from(answer).getList("violations.field", String.class))
                    .as("%s", secrets.keySet())
                    .containsExactly("secrets." + secrets.keySet().iterator().next());
        }
        String inClear = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign("bad-secrets", Map.of("HF_TOKEN", "x"), Map.of("HF_TOKEN", value)))
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertThat(inClear).doesNotContain(value);
        assertThat(JsonPath.from(inClear).getString("violations[0].field")).isEqualTo("secrets.HF_TOKEN");
        assertThat(JsonPath.from(inClear).getString("violations[0].message")).contains("spec.environment");
        Map<String, Object> many = new HashMap<>();
        for (int i = 0; i < NewCampaignRequest.MAX_SECRETS + 1; i++) {
            many.put("S" + i, value);
        }
        String tooMany = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign("bad-secrets", Map.of(), many))
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .body("violations.field", contains("secrets"))
                .extract()
                .asString();
        String tooBig = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign(
                        "bad-secrets", Map.of(), Map.of("BIG", "x".repeat(NewCampaignRequest.MAX_SECRET_BYTES + 1))))
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .body("violations.field", contains("secrets"))
                .extract()
                .asString();
        assertThat(tooMany).doesNotContain(value);
        assertThat(tooBig).doesNotContain("x".repeat(64));
    }

    @Test
    void aBillionPointMatrixIsRefusedBeforeItIsExpanded() {
        Map<String, List<String>> matrix = new HashMap<>();
        for (int axis = 0; axis < 9; axis++) {
            matrix.put("p" + axis, List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"));
        }
        Map<String, Object> body = new HashMap<>(campaign("huge", Map.of(), null));
        Map<String, Object> spec = new HashMap<>(spec(Map.of()));
        spec.put("matrix", matrix);
        body.put("spec", spec);
        String answer = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertThat(answer).contains("1000000000 jobs").contains("limit of " + CampaignPlan.MAX_JOBS);
    }

    private static Optional<JobAssigned> assigned(UUID job) {
        for (ConsumerRecord<byte[], byte[]> r : Kafka.readAll("podium.jobs")) {
            if (r.key() != null
                    && job.toString().equals(new String(r.key(), StandardCharsets.UTF_8))
                    && CODEC.decode(r.value()) instanceof Decoded.Accepted a
                    && a.envelope().payload() instanceof JobAssigned grant) {
                return Optional.of(grant);
            }
        }
        return Optional.empty();
    }

    private static Map<String, Object> campaign(String pool, Map<String, String> environment, Map<String, ?> secrets) {
        Map<String, Object> out =
                new HashMap<>(Map.of("name", "secrets", "pools", List.of(pool), "spec", spec(environment)));
        if (secrets != null) {
            out.put("secrets", secrets);
        }
        return out;
    }

    private static Map<String, Object> spec(Map<String, String> environment) {
        return Map.of(
                "benchmark",
                "reference-finetune",
                "adapter",
                "reference",
                "parameters",
                Map.of("epochs", "1"),
                "matrix",
                Map.of(),
                "repetitions",
                1,
                "warmup_steps",
                0,
                "timeout_seconds",
                60,
                "environment",
                environment,
                "nodes",
                1,
                "devices_per_node",
                1);
    }
}
