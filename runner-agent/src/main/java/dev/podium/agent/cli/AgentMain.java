package dev.podium.agent.cli;

import dev.podium.agent.config.SettingsException;
import dev.podium.agent.job.JobSpecException;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code podium-agent} command line. */
@Command(
        name = "podium-agent",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Runs benchmarks on this host and publishes what it measured to Podium.",
        subcommands = {
            DetectCommand.class,
            RunCommand.class,
            SubmitCommand.class,
            ParseCommand.class,
            DaemonCommand.class,
            JournalCommand.class,
            CommandLine.HelpCommand.class
        })
public final class AgentMain implements Runnable {

    /** Held so that the levels set on them are not lost to garbage collection. */
    private static final Logger KAFKA_LOG = Logger.getLogger("org.apache.kafka");

    private static final Logger VALIDATOR_LOG = Logger.getLogger("org.hibernate.validator");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command and returns its exit code (tests call this in the same JVM). */
    public static int execute(String... args) {
        if (System.getenv("PODIUM_AGENT_VERBOSE") == null) {
            // The Kafka client logs every failed connection attempt; the agent reports outages itself, once.
            KAFKA_LOG.setLevel(Level.SEVERE);
            // Hibernate Validator, which checks job specs, announces its version when it starts.
            VALIDATOR_LOG.setLevel(Level.WARNING);
        }
        CommandLine cl = new CommandLine(new AgentMain());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("podium-agent: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return e instanceof SettingsException || e instanceof JobSpecException ? 2 : 1;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
