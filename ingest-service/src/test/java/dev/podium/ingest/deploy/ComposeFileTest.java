package dev.podium.ingest.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.podium.ingest.config.AdminConfig;
import dev.podium.ingest.config.IngestConfig;
import io.smallrye.config.ConfigMapping;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml is valid for docker-compose (checked offline with `docker-compose config`, no engine needed), and
 * every environment variable it gives a Podium container is one that container reads: a configuration key in its
 * environment-variable form, a {@code ${VAR}} its application.properties refers to, or a variable the agent reads.
 */
class ComposeFileTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path COMPOSE = ROOT.resolve("docker-compose.yml");

    /** The secrets docker-compose.yml must be given: none has a default. */
    private static final List<String> SECRETS = List.of(
            "PODIUM_MASTER_KEY",
            "PODIUM_ADMIN_TOKEN",
            "POSTGRES_PASSWORD",
            "PODIUM_QUERY_DB_PASSWORD",
            "PODIUM_KAFKA_ADMIN_PASSWORD",
            "PODIUM_KAFKA_INGEST_PASSWORD");

    @Test
    void dockerComposeAcceptsTheFileOnceEverySecretIsSet() throws Exception {
        Map<String, String> env = new java.util.HashMap<>();
        SECRETS.forEach(s -> env.put(s, "test-" + s));
        Config c = config(env);
        assertThat(c.exit()).as("docker-compose config says: " + c.output()).isZero();
    }

    @Test
    void dockerComposeRefusesToStartWithoutEachSecret() throws Exception {
        assertThat(config(Map.of()).exit()).as("with no secret set").isNotZero();
        for (String missing : SECRETS) {
            Map<String, String> env = new java.util.HashMap<>();
            SECRETS.stream().filter(s -> !s.equals(missing)).forEach(s -> env.put(s, "test-" + s));
            Config c = config(env);
            assertThat(c.exit()).as("without " + missing).isNotZero();
            assertThat(c.output()).as("the refusal names " + missing).contains(missing);
        }
        String file = Files.readString(COMPOSE);
        Matcher defaulted = Pattern.compile("\\$\\{([A-Z0-9_]*(PASSWORD|MASTER_KEY|TOKEN)[A-Z0-9_]*):-")
                .matcher(file);
        assertThat(defaulted.find())
                .as("a secret with a default value: %s", defaulted.results().toList())
                .isFalse();
    }

    @Test
    void publishedPortsListenOnLoopbackOnly() throws IOException {
        JsonNode services =
                new ObjectMapper(new YAMLFactory()).readTree(COMPOSE.toFile()).path("services");
        List<String> ports = new ArrayList<>();
        services.forEach(s -> s.path("ports").forEach(p -> ports.add(p.asText())));
        assertThat(ports).isNotEmpty().allSatisfy(p -> assertThat(p).startsWith("127.0.0.1:"));
    }

    /**
     * Each agent key gets its own Kafka user from ingest (reliability's KafkaAclIT runs the same provisioning against a
     * broker with these ACLs): ingest is told to provision, holds the cluster rights for it, no shared agent user is
     * granted anything, and the broker re-authenticates sessions so that a revoked key's open connections end.
     */
    @Test
    void agentsLogInAsTheirKeysAndARevokedKeysSessionsEndWithinAMinute() throws IOException {
        JsonNode services =
                new ObjectMapper(new YAMLFactory()).readTree(COMPOSE.toFile()).path("services");
        assertThat(services.path("ingest-service")
                        .path("environment")
                        .path("PODIUM_KAFKA_AGENT_IDENTITIES")
                        .asText())
                .isEqualTo("true");
        long reauthMs = services.path("kafka")
                .path("environment")
                .path("KAFKA_CONNECTIONS_MAX_REAUTH_MS")
                .asLong();
        assertThat(reauthMs).isBetween(1L, 60_000L);
        List<String> acls = Files.readAllLines(ROOT.resolve("scripts/kafka/acls.conf")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .toList();
        assertThat(acls)
                .noneMatch(l -> l.startsWith("User:agent"))
                .anyMatch(l -> l.matches("User:ingest\\s+ALTER\\s+CLUSTER\\s.*"))
                .anyMatch(l -> l.matches("User:ingest\\s+ALTER_CONFIGS\\s+CLUSTER\\s.*"));
    }

    private record Config(int exit, String output) {}

    /** docker-compose config -q with only these variables in its environment and an empty env file (no .env). */
    private static Config config(Map<String, String> variables) throws Exception {
        Path empty = Files.createTempFile("podium-compose", ".env");
        try {
            ProcessBuilder pb = new ProcessBuilder(
                            "docker-compose", "--env-file", empty.toString(), "-f", COMPOSE.toString(), "config", "-q")
                    .redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> !k.equals("PATH") && !k.equals("HOME"));
            env.putAll(variables);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as("docker-compose config finished")
                    .isTrue();
            return new Config(p.exitValue(), out);
        } finally {
            Files.deleteIfExists(empty);
        }
    }

    @Test
    void everyVariableGivenToIngestServiceIsOneItReads() throws IOException {
        Set<String> known =
                propertiesFileNames(ROOT.resolve("ingest-service/src/main/resources/application.properties"));
        mappingNames(IngestConfig.class, known);
        Set<String> prefixes = Set.of(
                envForm(AdminConfig.class.getAnnotation(ConfigMapping.class).prefix() + ".tokens."));
        assertEveryVariableIsRead("ingest-service", known, prefixes);
    }

    @Test
    void everyVariableGivenToQueryServiceIsOneItReads() throws IOException {
        Set<String> known =
                propertiesFileNames(ROOT.resolve("query-service/src/main/resources/application.properties"));
        assertEveryVariableIsRead("query-service", known, Set.of());
    }

    @Test
    void everyVariableGivenToTheAgentIsOneItReads() throws IOException {
        Set<String> known = new HashSet<>();
        Pattern literal = Pattern.compile("\"(PODIUM_[A-Z0-9_]+)\"");
        try (Stream<Path> files = Files.walk(ROOT.resolve("runner-agent/src/main/java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = literal.matcher(Files.readString(f));
                while (m.find()) {
                    known.add(m.group(1));
                }
            }
        }
        assertEveryVariableIsRead("agent", known, Set.of());
    }

    private static void assertEveryVariableIsRead(String service, Set<String> known, Set<String> mapPrefixes)
            throws IOException {
        JsonNode env = new ObjectMapper(new YAMLFactory())
                .readTree(COMPOSE.toFile())
                .path("services")
                .path(service)
                .path("environment");
        assertThat(env.isObject())
                .as(service + " has an environment in docker-compose.yml")
                .isTrue();
        List<String> unread = new ArrayList<>();
        for (Iterator<String> names = env.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            boolean read = known.contains(name) || mapPrefixes.stream().anyMatch(name::startsWith);
            if (!read) {
                unread.add(name);
            }
        }
        assertThat(unread)
                .as("variables docker-compose.yml gives " + service + " that it never reads")
                .isEmpty();
    }

    /** Keys of application.properties (profile prefixes removed) and the ${VAR} names its values refer to. */
    private static Set<String> propertiesFileNames(Path file) throws IOException {
        Properties props = new Properties();
        props.load(Files.newBufferedReader(file, StandardCharsets.UTF_8));
        Set<String> names = new HashSet<>();
        Pattern reference = Pattern.compile("\\$\\{([^:}]+)");
        for (Map.Entry<Object, Object> e : props.entrySet()) {
            String key = e.getKey().toString().replaceFirst("^%[^.]+\\.", "");
            names.add(envForm(key));
            Matcher m = reference.matcher(e.getValue().toString());
            while (m.find()) {
                names.add(envForm(m.group(1)));
            }
        }
        return names;
    }

    /** The keys of a @ConfigMapping interface, in environment-variable form. */
    private static void mappingNames(Class<?> mapping, Set<String> out) {
        collect(mapping, mapping.getAnnotation(ConfigMapping.class).prefix(), out);
    }

    private static void collect(Class<?> type, String prefix, Set<String> out) {
        for (Method m : type.getDeclaredMethods()) {
            String key = prefix + "."
                    + m.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
            if (m.getReturnType().isInterface()
                    && m.getReturnType().getDeclaringClass() == type.getDeclaringClass()
                    && m.getReturnType().getEnclosingClass() != null) {
                collect(m.getReturnType(), key, out);
            } else {
                out.add(envForm(key));
            }
        }
    }

    /** SmallRye Config's rule: every character that is not a letter or digit becomes _, and all is upper case. */
    private static String envForm(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase();
    }
}
