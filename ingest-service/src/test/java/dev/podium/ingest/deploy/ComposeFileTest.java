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

    @Test
    void dockerComposeAcceptsTheFile() throws Exception {
        Process p = new ProcessBuilder("docker-compose", "-f", COMPOSE.toString(), "config", "-q")
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("docker-compose config finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("docker-compose config says: " + out).isZero();
    }

    @Test
    void everyVariableGivenToIngestServiceIsOneItReads() throws IOException {
        Set<String> known = propertiesFileNames(ROOT.resolve("ingest-service/src/main/resources/application.properties"));
        mappingNames(IngestConfig.class, known);
        Set<String> prefixes = Set.of(envForm(AdminConfig.class.getAnnotation(ConfigMapping.class).prefix() + ".tokens."));
        assertEveryVariableIsRead("ingest-service", known, prefixes);
    }

    @Test
    void everyVariableGivenToQueryServiceIsOneItReads() throws IOException {
        Set<String> known = propertiesFileNames(ROOT.resolve("query-service/src/main/resources/application.properties"));
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
        JsonNode env = new ObjectMapper(new YAMLFactory()).readTree(COMPOSE.toFile())
                .path("services").path(service).path("environment");
        assertThat(env.isObject()).as(service + " has an environment in docker-compose.yml").isTrue();
        List<String> unread = new ArrayList<>();
        for (Iterator<String> names = env.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            boolean read = known.contains(name) || mapPrefixes.stream().anyMatch(name::startsWith);
            if (!read) {
                unread.add(name);
            }
        }
        assertThat(unread).as("variables docker-compose.yml gives " + service + " that it never reads").isEmpty();
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
            String key = prefix + "." + m.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
            if (m.getReturnType().isInterface() && m.getReturnType().getDeclaringClass() == type.getDeclaringClass()
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
