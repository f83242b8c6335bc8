package dev.podium.agent.cli;

import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.daemon.Daemon;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.workload.Isolation;
import dev.podium.events.model.WorkloadAllowlist;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "daemon",
        mixinStandardHelpOptions = true,
        description = {
            "Register this agent (AgentRegistered on a new agent stream), take jobs of its pool from podium.jobs "
                    + "and send signed heartbeats to podium.heartbeats until stopped.",
            "For a JobRequested of its pool it publishes JobClaimed on a new run stream while it has a free slot, runs "
                    + "the job only once a JobAssigned grants it this run, and stops it on JobCancelled or JobLeaseExpired of "
                    + "its epoch (RunCancelled). Ctrl-C cancels running jobs the same way."
        })
public final class DaemonCommand implements Callable<Integer> {

    @Mixin
    AgentOptions options;

    @Option(
            names = "--heartbeat-interval",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description =
                    "Seconds between heartbeats, which also renew the lease of a running job (default: ${DEFAULT-VALUE}).")
    double intervalSeconds;

    @Option(
            names = "--heartbeats",
            defaultValue = "0",
            paramLabel = "N",
            description = "Stop after N heartbeats (0: run until stopped).")
    int maxHeartbeats;

    @Option(
            names = "--slots",
            defaultValue = "1",
            paramLabel = "N",
            description = "Jobs run at once; a claim not yet answered holds a slot (default: ${DEFAULT-VALUE}).")
    int slots;

    @Option(
            names = "--claim-timeout",
            defaultValue = "60",
            paramLabel = "SECONDS",
            description =
                    "How long a claim the command side has not answered holds its slot (default: ${DEFAULT-VALUE}).")
    double claimTimeoutSeconds;

    @Option(
            names = "--python",
            paramLabel = "PATH",
            description =
                    "Python interpreter for the reference workload and the software probe; a job cannot choose it "
                            + "(default: $PODIUM_PYTHON, /usr/bin/python3 or python3).")
    String python;

    @Option(
            names = "--sample-interval-ms",
            defaultValue = "1000",
            paramLabel = "MS",
            description = "Interval of CPU, memory and accelerator sampling during jobs (default: ${DEFAULT-VALUE}).")
    long sampleIntervalMillis;

    @Option(
            names = "--allow-adapters",
            paramLabel = "NAME",
            split = ",",
            description = "The shipped workloads jobs of this agent may run (default: $PODIUM_ALLOW_ADAPTERS, else"
                    + " reference,inference,mamf). A signed job of another adapter is refused, its run failed with the"
                    + " reason.")
    List<String> allowAdapters;

    @Option(
            names = "--allow-commands",
            paramLabel = "PATH",
            split = ",",
            description =
                    "Executables a command job may start on this agent: a directory ending in '/' (an absolute"
                            + " path below it), or argv[0] exactly (default: $PODIUM_ALLOW_COMMANDS, else none: no command"
                            + " jobs). A signed job whose executable is not allowed is refused, its run failed with the reason.")
    List<String> allowCommands;

    /** The agent's own allowlist: its options, else its environment, else the shipped workloads and no command. */
    WorkloadAllowlist allowlist() {
        Set<String> adapters = Set.copyOf(listed(allowAdapters, "PODIUM_ALLOW_ADAPTERS"));
        return new WorkloadAllowlist(
                adapters.isEmpty() ? WorkloadAllowlist.DEFAULT.adapters() : adapters,
                listed(allowCommands, "PODIUM_ALLOW_COMMANDS"));
    }

    private static List<String> listed(List<String> option, String variable) {
        List<String> values = option != null
                ? option
                : Arrays.asList(AgentOptions.env().getOrDefault(variable, "").split(","));
        return values.stream().map(String::trim).filter(v -> !v.isEmpty()).toList();
    }

    @Override
    public Integer call() throws Exception {
        AgentSettings settings = options.settings();
        if (settings.bootstrapServers() == null) {
            System.err.println(
                    "podium-agent: the daemon needs Kafka: --bootstrap-servers or kafka.bootstrap.servers in the key file");
            return 2;
        }
        if (slots < 1 || intervalSeconds <= 0 || claimTimeoutSeconds <= 0) {
            System.err.println(
                    "podium-agent: --slots must be at least 1, --heartbeat-interval and --claim-timeout above 0");
            return 2;
        }
        Isolation isolation = options.isolation();
        System.err.println(isolation.describe());
        String py = python != null ? python : PythonProbe.defaultPython();
        ToolRunner tools = new ToolRunner();
        Fingerprint fp = new HostDetector(tools).detect(new PythonProbe(py, tools));
        Daemon.Config config = new Daemon.Config(
                settings,
                fp,
                options.workDir(),
                py,
                Duration.ofMillis(Math.round(intervalSeconds * 1000)),
                maxHeartbeats,
                slots,
                Duration.ofMillis(Math.round(claimTimeoutSeconds * 1000)),
                sampleIntervalMillis,
                options.allowedEnvironment(),
                isolation,
                allowlist());
        try (Publishing pub = new Publishing(settings, options.flushTimeoutSeconds, System.err)) {
            Daemon daemon = new Daemon(config, pub.sink, System.err);
            CountDownLatch done = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                daemon.stop();
                try {
                    done.await(); // let RunCancelled of running jobs reach the journal before the JVM exits
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                daemon.run();
            } finally {
                done.countDown();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
            pub.flush();
        }
        return 0;
    }
}
