package dev.podium.reliability.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ACLs of docker-compose.yml (scripts/kafka/acls.conf, the file its kafka-init applies) on a broker that runs the
 * StandardAuthorizer with SASL/SCRAM users: the agent may write podium.events and podium.heartbeats and read podium.jobs,
 * and nothing else; the agent signs in exactly as runner-agent does ({@code dev.podium.agent.publish.KafkaLogin}).
 */
class KafkaAclIT {

    private static final Path ACLS = Path.of(System.getProperty("podium.acls", "../scripts/kafka/acls.conf"));
    private static final String AGENT_PASSWORD = "agent-password-for-this-test";
    private static final String INGEST_PASSWORD = "ingest-password-for-this-test";
    private static final List<String> TOPICS =
            List.of("podium.events", "podium.heartbeats", "podium.jobs", "podium.events.dlq");
    /** How long a client may take to hear the broker's answer on a loaded machine. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KafkaClusterTestKit cluster;

    @BeforeAll
    static void startBrokerWithAuthorizerAndApplyTheAcls() throws Exception {
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
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        try (Admin admin = Admin.create(superUser())) {
            admin.createTopics(TOPICS.stream()
                            .map(t -> new NewTopic(t, 1, (short) 1))
                            .toList())
                    .all()
                    .get();
            admin.alterUserScramCredentials(List.of(
                            new UserScramCredentialUpsertion(
                                    "agent",
                                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                                    AGENT_PASSWORD),
                            new UserScramCredentialUpsertion(
                                    "ingest",
                                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                                    INGEST_PASSWORD)))
                    .all()
                    .get();
            admin.createAcls(aclsFromFile()).all().get();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theAgentWritesEventsAndHeartbeats() throws Exception {
        try (KafkaProducer<String, byte[]> p = producer(agent())) {
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
    void theAgentReadsJobs() {
        try (KafkaConsumer<byte[], byte[]> c = consumer(agent(), null)) {
            TopicPartition tp = new TopicPartition("podium.jobs", 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            c.poll(Duration.ofSeconds(2));
            assertThat(c.position(tp)).isNotNegative();
        }
    }

    @Test
    void theAgentCannotWriteJobsOrTheDeadLetterTopic() {
        for (String topic : List.of("podium.jobs", "podium.events.dlq")) {
            try (KafkaProducer<String, byte[]> p = producer(agent())) {
                assertThatThrownBy(() -> p.send(new ProducerRecord<>(topic, "k", bytes("{}")))
                                .get())
                        .as(topic)
                        .satisfies(e -> assertCausedBy(e, AuthorizationException.class));
            }
        }
    }

    @Test
    void theAgentCannotReadEventsHeartbeatsOrTheDeadLetterTopic() {
        for (String topic : List.of("podium.events", "podium.heartbeats", "podium.events.dlq")) {
            try (KafkaConsumer<byte[], byte[]> c = consumer(agent(), null)) {
                TopicPartition tp = new TopicPartition(topic, 0);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                assertThat(refusal(c)).as(topic).isInstanceOf(AuthorizationException.class);
            }
        }
    }

    @Test
    void theAgentCannotJoinAGroupCreateTopicsOrGrantItselfMore() throws Exception {
        try (KafkaConsumer<byte[], byte[]> c = consumer(agent(), "podium-ingest")) {
            c.subscribe(List.of("podium.jobs"));
            assertThat(refusal(c)).isInstanceOf(AuthorizationException.class);
        }
        try (Admin admin = Admin.create(agent())) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("podium.mine", 1, (short) 1)))
                            .all()
                            .get())
                    .satisfies(e -> assertCausedBy(e, AuthorizationException.class));
            assertThatThrownBy(() ->
                            admin.deleteTopics(List.of("podium.events")).all().get())
                    .satisfies(e -> assertCausedBy(e, AuthorizationException.class));
            assertThatThrownBy(() -> admin.createAcls(List.of(new AclBinding(
                                    new ResourcePattern(ResourceType.TOPIC, "podium.events.dlq", PatternType.LITERAL),
                                    new AccessControlEntry(
                                            "User:agent", "*", AclOperation.READ, AclPermissionType.ALLOW))))
                            .all()
                            .get())
                    .satisfies(e -> assertCausedBy(e, AuthorizationException.class));
            assertThat(admin.listTopics().names().get())
                    .containsExactlyInAnyOrder("podium.events", "podium.heartbeats", "podium.jobs");
        }
    }

    @Test
    void ingestReadsEventsInItsGroupAndWritesTheDeadLetterTopicAndJobs() throws Exception {
        try (KafkaProducer<String, byte[]> p = producer(ingest())) {
            p.send(new ProducerRecord<>("podium.events.dlq", "k", bytes("{}"))).get();
            p.send(new ProducerRecord<>("podium.jobs", "job/1", bytes("{}"))).get();
        }
        try (KafkaConsumer<byte[], byte[]> c = consumer(ingest(), "podium-ingest")) {
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
        for (Properties login : List.of(scram("agent", "not-the-password"), scram("mallory", AGENT_PASSWORD))) {
            try (KafkaProducer<String, byte[]> p = producer(login)) {
                assertThatThrownBy(() -> p.send(new ProducerRecord<>("podium.events", "k", bytes("{}")))
                                .get())
                        .satisfies(e -> assertCausedBy(e, SaslAuthenticationException.class));
            }
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

    /** The agent's login, built by the agent's own code from the variables docker-compose.yml gives it. */
    private static Properties agent() {
        Properties p = new Properties();
        p.put("bootstrap.servers", cluster.bootstrapServers());
        dev.podium.agent.publish.KafkaLogin.apply(
                p, Map.of("PODIUM_KAFKA_USERNAME", "agent", "PODIUM_KAFKA_PASSWORD", AGENT_PASSWORD));
        return p;
    }

    private static Properties ingest() {
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
        Map<String, Object> p = new HashMap<>();
        login.forEach((k, v) -> p.put((String) k, v));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WAIT.toMillis());
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) WAIT.dividedBy(2).toMillis());
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
