package dev.podium.agent.cli;

import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.config.KeyFile;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.publish.KafkaLogin;
import dev.podium.agent.workload.Isolation;
import dev.podium.agent.workload.IsolationResolver;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** Options shared by the commands that publish: identity, Kafka, journal. */
final class AgentOptions {

    @Option(
            names = "--key-file",
            paramLabel = "FILE",
            description =
                    "Properties file with agent.id, key.id, key.secret (and optionally pool, kafka.bootstrap.servers). "
                            + "Default: $PODIUM_KEY_FILE. PODIUM_AGENT_ID, PODIUM_KEY_ID, PODIUM_KEY_SECRET override it.")
    Path keyFile;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description =
                    "Kafka bootstrap servers (default: the key file's kafka.bootstrap.servers or $PODIUM_KAFKA_BOOTSTRAP). "
                            + "Without one, events are only journaled.")
    String bootstrapServers;

    @Option(
            names = "--home",
            paramLabel = "DIR",
            description =
                    "Agent state directory: journal/ and workload/ (default: $PODIUM_AGENT_HOME or ~/.podium-agent).")
    Path home;

    @Option(
            names = "--journal-max-bytes",
            paramLabel = "BYTES",
            defaultValue = "268435456",
            description = "Bound of the journal on disk (default: ${DEFAULT-VALUE}).")
    long journalMaxBytes;

    @Option(
            names = "--flush-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description =
                    "How long to wait for Kafka to acknowledge events before exiting; what is not acknowledged stays "
                            + "in the journal and is sent on the next start (default: ${DEFAULT-VALUE}).")
    int flushTimeoutSeconds;

    @Option(
            names = "--allow-env",
            paramLabel = "NAME",
            split = ",",
            description =
                    "Environment variables a job may set for its workload, beyond the built-in ones of distributed"
                            + " runs (MASTER_ADDR, WORLD_SIZE, CUDA_VISIBLE_DEVICES, ...). Default: $PODIUM_JOB_ENV_ALLOW"
                            + " (comma-separated). Names starting with PODIUM_ are never passed.")
    List<String> allowEnv;

    @Option(
            names = "--isolation",
            paramLabel = "MODE",
            description =
                    "How workloads are kept from the agent's secrets: auto (the default, or $PODIUM_WORKLOAD_ISOLATION),"
                            + " user (as root: each workload under --workload-user), namespace (not as root: new user, PID and"
                            + " mount namespaces), off (workloads run as the agent and can read its secrets). Where auto finds"
                            + " neither, command jobs are refused.")
    String isolation;

    @Option(
            names = "--workload-user",
            paramLabel = "NAME",
            description = "The user workloads run as when the agent is root (default: $PODIUM_WORKLOAD_USER or "
                    + IsolationResolver.Settings.DEFAULT_USER + ").")
    String workloadUser;

    @Option(
            names = "--hide",
            paramLabel = "PATH",
            split = ",",
            description = "Paths workloads must not see, beyond the key file's directory and the agent's home, where"
                    + " workloads run in namespaces (default: $PODIUM_WORKLOAD_HIDE, comma-separated).")
    List<Path> hide;

    /** How this agent's workloads are isolated, tried on this host now; a mode named that does not work here throws. */
    Isolation isolation() {
        String mode = isolation != null ? isolation : env().getOrDefault("PODIUM_WORKLOAD_ISOLATION", "auto");
        String user = workloadUser != null
                ? workloadUser
                : env().getOrDefault("PODIUM_WORKLOAD_USER", IsolationResolver.Settings.DEFAULT_USER);
        List<Path> hidden = hide != null
                ? hide
                : Arrays.stream(env().getOrDefault("PODIUM_WORKLOAD_HIDE", "").split(","))
                        .map(String::trim)
                        .filter(p -> !p.isEmpty())
                        .map(Path::of)
                        .toList();
        return IsolationResolver.onThisHost()
                .resolve(
                        new IsolationResolver.Settings(IsolationResolver.Mode.parse(mode), user, hidden),
                        new IsolationResolver.Agent(
                                keyFilePath(), home(), workDir(), IsolationResolver.runningAsRoot()));
    }

    Path workDir() {
        return home().resolve("workload");
    }

    /** The names of {@code --allow-env}, else of {@code $PODIUM_JOB_ENV_ALLOW}. */
    Set<String> allowedEnvironment() {
        if (allowEnv != null) {
            return allowEnv.stream().map(String::trim).filter(n -> !n.isEmpty()).collect(Collectors.toSet());
        }
        String configured = env().getOrDefault("PODIUM_JOB_ENV_ALLOW", "");
        return Arrays.stream(configured.split(","))
                .map(String::trim)
                .filter(n -> !n.isEmpty())
                .collect(Collectors.toSet());
    }

    static Map<String, String> env() {
        return System.getenv();
    }

    Path home() {
        if (home != null) {
            return home;
        }
        String env = System.getenv("PODIUM_AGENT_HOME");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".podium-agent");
    }

    Journal journal() {
        return new Journal(home().resolve("journal"), journalMaxBytes);
    }

    private Path keyFilePath() {
        if (keyFile == null && System.getenv("PODIUM_KEY_FILE") != null) {
            return Path.of(System.getenv("PODIUM_KEY_FILE"));
        }
        return keyFile;
    }

    AgentSettings settings() {
        KeyFile.Identity id = KeyFile.load(keyFilePath(), env());
        String bootstrap = bootstrapServers != null ? bootstrapServers : id.bootstrapServers();
        return new AgentSettings(
                id.agentId(),
                id.keyId(),
                id.secret(),
                id.pool(),
                bootstrap,
                id.kafkaLogin(),
                home().resolve("journal"),
                journalMaxBytes,
                id.commandKey());
    }

    /** The Kafka login for commands that need no identity (journal --flush): the key file's, or the environment's. */
    KafkaLogin loginOnly() {
        try {
            return settings().kafkaLogin();
        } catch (RuntimeException e) {
            return KafkaLogin.of(env(), new Properties());
        }
    }

    /** Bootstrap servers for commands that need no identity (journal --flush). */
    String bootstrapOnly() {
        if (bootstrapServers != null) {
            return bootstrapServers;
        }
        try {
            return settings().bootstrapServers();
        } catch (RuntimeException e) {
            return System.getenv("PODIUM_KAFKA_BOOTSTRAP");
        }
    }
}
