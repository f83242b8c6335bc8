package dev.podium.reliability.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.publish.KafkaLogin;
import dev.podium.reliability.fault.AdminApi;
import dev.podium.reliability.process.IngestProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.PrivatePostgres;
import dev.podium.reliability.process.WorkDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kafka identities of docker-compose.yml on a broker that runs the StandardAuthorizer with SASL/SCRAM users: ingest
 * with the ACLs of scripts/kafka/acls.conf (the file compose's kafka-init applies), and one user per agent key, which
 * ingest-service's packaged application creates when the key-issuing API issues a key and removes when it is revoked.
 * An agent may write podium.events and podium.heartbeats and read podium.jobs as itself, and nothing else; it signs in
 * exactly as runner-agent does ({@code dev.podium.agent.publish.KafkaLogin}). The broker re-authenticates sessions every
 * {@link #REAUTH}, as compose's does every minute.
 */
class KafkaAclIT {

    private static final Path ACLS = Path.of(System.getProperty("podium.acls", "../scripts/kafka/acls.conf"));
    private static final String INGEST_PASSWORD = "ingest-password-for-this-test";
    private static final List<String> TOPICS =
            List.of("podium.events", "podium.heartbeats", "podium.jobs", "podium.events.dlq");
    /** How long a client may take to hear the broker's answer on a loaded machine. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The broker's connections.max.reauth.ms. */
    private static final Duration REAUTH = Duration.ofSeconds(5);
    /** How often ingest reconciles the broker's agent identities with the keys. */
    private static final Duration RECONCILE = Duration.ofSeconds(2);
    /** What a loaded two-core machine may add to a bound measured here. */
    private static final Duration SLACK = Duration.ofSeconds(20);

    private static KafkaClusterTestKit cluster;
    private static PrivatePostgres postgres;
    private static IngestProcess ingest;
    private static AdminApi api;
    private static AdminApi.KafkaIdentity agentA;
    private static AdminApi.KafkaIdentity agentB;

    @BeforeAll
    static void startBrokerIngestAndIssueTwoAgents() throws Exception {
        startBroker();
        try (Admin admin = Admin.create(superUser())) {
            admin.createTopics(TOPICS.stream()
                            .map(t -> new NewTopic(t, 1, (short) 1))
                            .toList())
                    .all()
                    .get();
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            "ingest", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), INGEST_PASSWORD)))
                    .all()
                    .get();
            admin.createAcls(aclsFromFile()).all().get();
        }
        startIngest();
        agentA = issue("acl-agent-a");
        agentB = issue("acl-agent-b");
    }

    /**
     * Issues a key through the API and waits until its login works: the API answers once the controller has the
     * credential and ACLs, which the broker applies a moment later.
     */
    private static AdminApi.KafkaIdentity issue(String agentId) throws InterruptedException {
        AdminApi.KafkaIdentity identity = api.issueKafkaIdentity(agentId);
        Throwable last = pollUntil(SLACK, Duration.ofMillis(200), () -> sendFailure(agent(identity)), Objects::isNull);
        if (last != null) {
            throw new AssertionError("the login of " + agentId + "'s key does not work", last);
        }
        return identity;
    }

    private static void startBroker() throws Exception {
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                        .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                        .build())
                // the test kit signs its own admin in with PLAIN; the services and agents use SCRAM, as in compose
                .setConfigProp("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512")
                .setConfigProp(
                        "listener.name.external.scram-sha-512.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;")
                .setConfigProp("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .setConfigProp("allow.everyone.if.no.acl.found", "false")
                .setConfigProp("connections.max.reauth.ms", Long.toString(REAUTH.toMillis()))
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    /** ingest-service's packaged application, signed in as compose's ingest is, provisioning agent identities. */
    private static void startIngest() {
        Path work = WorkDirs.fresh(Path.of(System.getProperty("podium.reliability.work", "target/reliability"))
                .resolve("kafka-acl"));
        int base = Ports.freeRun(2);
        postgres = PrivatePostgres.start(base);
        String token = UUID.randomUUID().toString();
        ingest = new IngestProcess(
                "ingest",
                Path.of(System.getProperty("podium.ingest.app")),
                work,
                base + 1,
                postgres.jdbcUrl(),
                cluster.bootstrapServers(),
                token);
        ingest.start(List.of(
                "-XX:TieredStopAtLevel=1",
                "-Dpodium.ingest.kafka-username=ingest",
                "-Dpodium.ingest.kafka-password=" + INGEST_PASSWORD,
                "-Dpodium.ingest.agent-identities.enabled=true",
                "-Dpodium.ingest.agent-identities.reconcile-interval=" + RECONCILE.toSeconds() + "s"));
        api = new AdminApi(ingest.baseUrl(), token);
    }

    @AfterAll
    static void stop() throws Exception {
        if (ingest != null) {
            ingest.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anAgentWritesEventsAndHeartbeatsAsItself() throws Exception {
        try (KafkaProducer<String, byte[]> p = producer(agent(agentA))) {
            assertThat(p.send(new ProducerRecord<>("podium.events", "run/x", bytes("{}")))
                            .get()
                            .offset())
                    .isNotNegative();
            assertThat(p.send(new ProducerRecord<>("podium.heartbeats", "agent-1", bytes("{}")))
                            .get()
                            .offset())
                    .isNotNegative();
        }
    }

    @Test
    void anAgentReadsJobs() {
        try (KafkaConsumer<byte[], byte[]> c = consumer(agent(agentA), null)) {
            TopicPartition tp = new TopicPartition("podium.jobs", 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            c.poll(Duration.ofSeconds(2));
            assertThat(c.position(tp)).isNotNegative();
        }
    }

    @Test
    void eachAgentIsItsKeysOwnUserWithAProduceQuota() throws Exception {
        assertThat(agentA.username()).isEqualTo(agentA.keyId()).isNotEqualTo(agentB.username());
        try (Admin admin = Admin.create(superUser())) {
            Map<ClientQuotaEntity, Map<String, Double>> quotas = admin.describeClientQuotas(ClientQuotaFilter.contains(
                            List.of(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, agentA.username()))))
                    .entities()
                    .get();
            assertThat(quotas.values())
                    .singleElement()
                    .satisfies(q -> assertThat(q).containsEntry("producer_byte_rate", 1_048_576.0));
        }
    }

    @Test
    void anAgentCannotWriteJobsOrTheDeadLetterTopic() {
        for (String topic : List.of("podium.jobs", "podium.events.dlq")) {
            try (KafkaProducer<String, byte[]> p = producer(agent(agentA))) {
                assertThatThrownBy(() -> p.send(new ProducerRecord<>(topic, "k", bytes("{}")))
                                .get())
                        .as(topic)
                        .satisfies(e -> assertCausedBy(e, AuthorizationException.class));
            }
        }
    }

    @Test
    void anAgentCannotReadEventsHeartbeatsOrTheDeadLetterTopic() {
        for (String topic : List.of("podium.events", "podium.heartbeats", "podium.events.dlq")) {
            try (KafkaConsumer<byte[], byte[]> c = consumer(agent(agentA), null)) {
                TopicPartition tp = new TopicPartition(topic, 0);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                assertThat(refusal(c)).as(topic).isInstanceOf(AuthorizationException.class);
            }
        }
    }

    @Test
    void anAgentCannotLogInAsAnotherAgent() {
        for (Properties login : List.of(
                scram(agentB.username(), agentA.password()),
                scram(agentA.username(), agentB.password()),
                scram("agent", agentA.password()))) {
            assertLoginRefused(login);
        }
    }

    @Test
    void anAgentCannotJoinAGroupCreateOrDeleteTopicsOrDeleteRecords() throws Exception {
        try (KafkaConsumer<byte[], byte[]> c = consumer(agent(agentA), "podium-ingest")) {
            c.subscribe(List.of("podium.jobs"));
            assertThat(refusal(c)).isInstanceOf(AuthorizationException.class);
        }
        try (Admin admin = Admin.create(agent(agentA))) {
            assertRefused(() -> admin.createTopics(List.of(new NewTopic("podium.mine", 1, (short) 1)))
                    .all());
            assertRefused(() -> admin.deleteTopics(List.of("podium.events")).all());
            assertRefused(() -> admin.deleteRecords(
                            Map.of(new TopicPartition("podium.events", 0), RecordsToDelete.beforeOffset(1)))
                    .all());
            assertThat(admin.listTopics().names().get())
                    .containsExactlyInAnyOrder("podium.events", "podium.heartbeats", "podium.jobs");
        }
    }

    @Test
    void anAgentCannotReadOrChangeAnyonesGrantsCredentialsOrQuota() throws Exception {
        try (Admin admin = Admin.create(agent(agentA))) {
            assertRefused(() -> admin.describeAcls(AclBindingFilter.ANY).values());
            assertRefused(() -> admin.createAcls(List.of(new AclBinding(
                            new ResourcePattern(ResourceType.TOPIC, "podium.events.dlq", PatternType.LITERAL),
                            new AccessControlEntry(
                                    "User:" + agentA.username(), "*", AclOperation.READ, AclPermissionType.ALLOW))))
                    .all());
            assertRefused(() -> admin.deleteAcls(List.of(new AclBindingFilter(
                            ResourcePatternFilter.ANY,
                            new AccessControlEntryFilter(
                                    "User:" + agentB.username(), null, AclOperation.ANY, AclPermissionType.ANY))))
                    .all());
            assertRefused(() -> admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            agentB.username(),
                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                            "taken-over")))
                    .all());
            assertRefused(() -> admin.describeUserScramCredentials().all());
            assertRefused(
                    () -> admin.describeClientQuotas(ClientQuotaFilter.all()).entities());
        }
    }

    /**
     * A key revoked through the API: its open producer and consumer stop within the re-authentication interval (its
     * ACLs go at once, its credential before the next re-authentication), and it cannot log in again.
     */
    @Test
    void aRevokedAgentsOpenProducerAndConsumerStopWithinTheReauthenticationInterval() throws Exception {
        AdminApi.KafkaIdentity revoked = issue("acl-agent-revoked");
        KafkaConsumer<byte[], byte[]> c = consumer(agent(revoked), null);
        try (KafkaProducer<String, byte[]> p = producer(agent(revoked))) {
            p.send(new ProducerRecord<>("podium.heartbeats", "k", bytes("{}"))).get();
            TopicPartition jobs = new TopicPartition("podium.jobs", 0);
            c.assign(List.of(jobs));
            c.poll(Duration.ofSeconds(1));
            long revokedAt = System.nanoTime();
            api.revoke(revoked.keyId());
            Duration bound = REAUTH.plus(SLACK);
            assertThat(stopsWithin(bound, () -> sendFailure(p))).isNotNull();
            assertThat(stopsWithin(bound, () -> pollFailure(c))).isNotNull();
            assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(bound);
        } finally {
            closeRefused(c);
        }
        assertLoginRefused(agent(revoked));
    }

    /**
     * What ends a session whose ACLs stay: the broker re-authenticates it and the deleted credential fails. The open
     * consumer is told so; the open producer's records are no longer acknowledged.
     */
    @Test
    void aDeletedCredentialEndsOpenSessionsAtReauthentication() throws Exception {
        String user = "reauth-probe";
        String password = "reauth-probe-password";
        try (Admin admin = Admin.create(superUser())) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password)))
                    .all()
                    .get();
            admin.createAcls(List.of(
                            allow(user, "podium.heartbeats", AclOperation.WRITE),
                            allow(user, "podium.jobs", AclOperation.READ)))
                    .all()
                    .get();
            Duration bound = REAUTH.plus(SLACK);
            KafkaConsumer<byte[], byte[]> c = consumer(scram(user, password), null);
            // a record the broker no longer acknowledges fails after this, not after the default minute
            try (KafkaProducer<String, byte[]> p = producer(scram(user, password), Duration.ofSeconds(10))) {
                p.send(new ProducerRecord<>("podium.heartbeats", "k", bytes("{}")))
                        .get();
                c.assign(List.of(new TopicPartition("podium.jobs", 0)));
                c.poll(Duration.ofSeconds(1));
                admin.alterUserScramCredentials(
                                List.of(new UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_512)))
                        .all()
                        .get();
                assertThat(stopsWithin(bound, () -> pollFailure(c)))
                        .isNotNull()
                        .satisfies(e -> assertCausedBy(e, AuthenticationException.class));
                assertThat(stopsWithin(bound, () -> sendFailure(p))).isNotNull();
            } finally {
                closeRefused(c);
            }
        }
    }

    private static AclBinding allow(String user, String topic, AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    /**
     * An identity the broker lacks while its key is active (the broker was down when the key was issued, or lost it) is
     * created again by ingest's reconciler with the key file's password.
     */
    @Test
    void anActiveKeysIdentityMissingOnTheBrokerIsRecreatedByTheReconciler() throws Exception {
        AdminApi.KafkaIdentity lost = issue("acl-agent-lost");
        try (Admin admin = Admin.create(superUser())) {
            admin.deleteAcls(List.of(new AclBindingFilter(
                            ResourcePatternFilter.ANY,
                            new AccessControlEntryFilter(
                                    "User:" + lost.username(), null, AclOperation.ANY, AclPermissionType.ANY))))
                    .all()
                    .get();
            admin.alterUserScramCredentials(
                            List.of(new UserScramCredentialDeletion(lost.username(), ScramMechanism.SCRAM_SHA_512)))
                    .all()
                    .get();
        }
        Throwable last = pollUntil(
                RECONCILE.plus(SLACK), Duration.ofMillis(500), () -> sendFailure(agent(lost)), Objects::isNull);
        if (last == null) {
            return;
        }
        throw new AssertionError("the identity of key " + lost.keyId() + " was not recreated", last);
    }

    @Test
    void ingestReadsEventsInItsGroupAndWritesTheDeadLetterTopicAndJobs() throws Exception {
        try (KafkaProducer<String, byte[]> p = producer(ingestLogin())) {
            p.send(new ProducerRecord<>("podium.events.dlq", "k", bytes("{}"))).get();
            p.send(new ProducerRecord<>("podium.jobs", "job/1", bytes("{}"))).get();
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(ingestLogin(), "podium-ingest-acl-test")) {
            c.subscribe(List.of("podium.events"));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (c.assignment().isEmpty() && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(500));
            }
            assertThat(c.assignment()).isNotEmpty();
            c.commitSync();
        }
    }

    @Test
    void aWrongPasswordOrAnUnknownUserIsRefused() {
        for (Properties login : List.of(scram(agentA.username(), "not-the-password"), scram("mallory", "x"))) {
            assertLoginRefused(login);
        }
    }

    /** acls.conf: one "principal operation resource pattern name" per line, all ALLOW from any host. */
    static List<AclBinding> aclsFromFile() throws IOException {
        List<AclBinding> out = new ArrayList<>();
        for (String line : Files.readAllLines(ACLS, StandardCharsets.UTF_8)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            ResourceType type = ResourceType.fromString(f[2]);
            String name = type == ResourceType.CLUSTER ? "kafka-cluster" : f[4];
            out.add(new AclBinding(
                    new ResourcePattern(type, name, PatternType.fromString(f[3])),
                    new AccessControlEntry(f[0], "*", AclOperation.fromString(f[1]), AclPermissionType.ALLOW)));
        }
        assertThat(out)
                .as("ACLs in " + ACLS)
                .isNotEmpty()
                .noneMatch(b -> b.pattern().resourceType() == ResourceType.UNKNOWN
                        || b.entry().operation() == AclOperation.UNKNOWN);
        return out;
    }

    private static void assertCausedBy(Throwable thrown, Class<? extends Throwable> type) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = thrown; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        assertThat(chain).as("causes of " + thrown).anyMatch(type::isInstance);
    }

    /** An Admin call the broker refuses for want of rights. */
    private static void assertRefused(Supplier<org.apache.kafka.common.KafkaFuture<?>> call) {
        assertThatThrownBy(() -> call.get().get()).satisfies(e -> assertCausedBy(e, AuthorizationException.class));
    }

    private static void assertLoginRefused(Properties login) {
        try (KafkaProducer<String, byte[]> p = producer(login)) {
            assertThatThrownBy(() -> p.send(new ProducerRecord<>("podium.heartbeats", "k", bytes("{}")))
                            .get())
                    .satisfies(e -> assertCausedBy(e, SaslAuthenticationException.class));
        }
    }

    /** The failure {@code attempt} returns within {@code bound}, trying every 250 ms; null if it never failed. */
    private static Throwable stopsWithin(Duration bound, Supplier<Throwable> attempt) {
        return pollUntil(bound, Duration.ofMillis(250), attempt, Objects::nonNull);
    }

    /**
     * Tries {@code attempt} every {@code every} until {@code done} holds of what it returned, for at most {@code bound}:
     * its last result, which the caller judges.
     */
    private static Throwable pollUntil(
            Duration bound, Duration every, Supplier<Throwable> attempt, Predicate<Throwable> done) {
        AtomicReference<Throwable> last = new AtomicReference<>();
        try {
            await().pollDelay(Duration.ZERO).pollInterval(every).atMost(bound).until(() -> {
                last.set(attempt.get());
                return done.test(last.get());
            });
        } catch (ConditionTimeoutException e) {
            // the last result says why
        }
        return last.get();
    }

    /** Why a heartbeat sent on this open producer failed, or null when it was written. */
    private static Throwable sendFailure(KafkaProducer<String, byte[]> p) {
        try {
            p.send(new ProducerRecord<>("podium.heartbeats", "k", bytes("{}"))).get();
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /** Why a heartbeat sent with a fresh login failed, or null when it was written. */
    private static Throwable sendFailure(Properties login) {
        try (KafkaProducer<String, byte[]> p = producer(login)) {
            return sendFailure(p);
        }
    }

    /** Closes a consumer whose login is gone: its close fails with the refusal its polls already showed. */
    private static void closeRefused(KafkaConsumer<byte[], byte[]> c) {
        try {
            c.close(Duration.ofSeconds(5));
        } catch (KafkaException e) {
            assertCausedBy(e, AuthenticationException.class);
        }
    }

    /** Why a poll on this open consumer failed, or null when it answered. */
    private static Throwable pollFailure(KafkaConsumer<byte[], byte[]> c) {
        try {
            c.poll(Duration.ofMillis(250));
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    // ---- clients

    private static Properties superUser() {
        Properties p = base();
        p.put("sasl.mechanism", "PLAIN");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"plain-admin\" password=\"plain-admin-secret\";");
        return p;
    }

    /** An agent's login, read by the agent's own code from the key file lines of what the key-issuing API answered. */
    private static Properties agent(AdminApi.KafkaIdentity identity) {
        Properties p = new Properties();
        p.put("bootstrap.servers", cluster.bootstrapServers());
        Properties keyFile = new Properties();
        keyFile.setProperty("kafka.username", identity.username());
        keyFile.setProperty("kafka.password", identity.password());
        KafkaLogin.apply(p, KafkaLogin.of(Map.of(), keyFile));
        return p;
    }

    private static Properties ingestLogin() {
        return scram("ingest", INGEST_PASSWORD);
    }

    private static Properties scram(String user, String password) {
        Properties p = base();
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return p;
    }

    private static Properties base() {
        Properties p = new Properties();
        p.put("bootstrap.servers", cluster.bootstrapServers());
        p.put("security.protocol", "SASL_PLAINTEXT");
        return p;
    }

    private static KafkaProducer<String, byte[]> producer(Properties login) {
        return producer(login, WAIT);
    }

    /** A producer that gives up on a record not acknowledged within {@code delivery}. */
    private static KafkaProducer<String, byte[]> producer(Properties login, Duration delivery) {
        Map<String, Object> p = new HashMap<>();
        login.forEach((k, v) -> p.put((String) k, v));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WAIT.toMillis());
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) delivery.toMillis());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int)
                delivery.dividedBy(2).toMillis());
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Properties login, String group) {
        Map<String, Object> p = new HashMap<>();
        login.forEach((k, v) -> p.put((String) k, v));
        if (group != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The exception the broker answers polls with, or null if a whole {@link #WAIT} of polls brought none. */
    private static RuntimeException refusal(KafkaConsumer<byte[], byte[]> c) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                c.poll(Duration.ofMillis(500));
            } catch (RuntimeException e) {
                return e;
            }
        }
        return null;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
