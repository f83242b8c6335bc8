package dev.podium.agent.daemon;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.agent.AgentVersion;
import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.job.JobRunner;
import dev.podium.agent.job.Progress;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.publish.Heartbeat;
import dev.podium.agent.publish.HeartbeatSender;
import dev.podium.agent.workload.Isolation;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.model.WorkloadAllowlist;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The agent as a service: registers (AgentRegistered on a new agent stream), takes jobs from {@code podium.jobs} through
 * the {@link JobDispatcher}, and sends a signed heartbeat every interval, and at once when a job starts or ends, naming
 * the running job, its run and its lease epoch so that the command side renews the lease (one heartbeat per running
 * job when it runs several). {@link #run()} blocks until
 * {@link #stop()} (or the configured number of heartbeats); stopping cancels running jobs, which publish RunCancelled.
 */
public final class Daemon {

    /**
     * @param slots            jobs run at once (claims unanswered count against them)
     * @param claimTimeout     how long an unanswered claim holds its slot
     * @param maxHeartbeats    stop after this many heartbeats (0: until stopped)
     * @param allowedEnvironment environment variables jobs may set beyond the built-in ones (see ChildEnvironment)
     * @param isolation        how workloads are kept from the agent's secrets, decided at start
     * @param allowlist        the adapters and commands this agent runs, whatever a signed job asks
     */
    public record Config(
            AgentSettings settings,
            Fingerprint fingerprint,
            Path workDir,
            String python,
            Duration heartbeatInterval,
            int maxHeartbeats,
            int slots,
            Duration claimTimeout,
            long sampleIntervalMillis,
            Set<String> allowedEnvironment,
            Isolation isolation,
            WorkloadAllowlist allowlist) {}

    /** The {@link ReadLedger} of {@code podium.jobs}, in the agent's home beside the journal. */
    static final String LEDGER_FILE = "jobs-read-ledger";

    private final Config config;
    private final EventSink sink;
    private final PrintStream log;
    private final UUID bootId = TimeOrderedIds.next();
    private final Object signal = new Object();
    private boolean wake;
    private boolean stopped;
    private long heartbeatSeq;

    public Daemon(Config config, EventSink sink, PrintStream log) {
        this.config = config;
        this.sink = sink;
        this.log = log;
    }

    public UUID bootId() {
        return bootId;
    }

    public void stop() {
        synchronized (signal) {
            stopped = true;
            signal.notifyAll();
        }
    }

    public void run() {
        AgentSettings settings = config.settings();
        Fingerprint fp = config.fingerprint();
        String deviceId = fp.accelerators().isEmpty()
                ? HostDetector.cpuAsAccelerator(fp.host()).deviceId()
                : fp.accelerators().get(0).deviceId();
        ToolRunner tools = new ToolRunner();
        JobDispatcher dispatcher = new JobDispatcher(
                sink,
                settings.pool(),
                config.allowlist(),
                config.slots(),
                config.claimTimeout(),
                () -> new JobRunner(
                                sink,
                                fp,
                                config.workDir(),
                                config.python(),
                                new Progress(log, false),
                                tools,
                                config.sampleIntervalMillis())
                        .allowingEnvironment(config.allowedEnvironment())
                        .isolatedBy(config.isolation()),
                this::wake,
                log);
        try (HeartbeatSender heartbeats =
                new HeartbeatSender(settings.bootstrapServers(), settings.kafkaLogin(), sink)) {
            sink.stream(StreamId.agent(settings.agentId(), bootId))
                    .emit(new AgentRegistered(
                            settings.agentId(),
                            bootId,
                            settings.pool(),
                            AgentVersion.VERSION,
                            fp.host(),
                            fp.accelerators(),
                            fp.software()));
            log.println("agent " + settings.agentId() + " registered (boot " + bootId + ", pool " + settings.pool()
                    + ", " + config.slots() + (config.slots() == 1 ? " slot" : " slots") + ")");
            try (JobFeed feed = new JobFeed(
                    settings.bootstrapServers(),
                    settings.kafkaLogin(),
                    settings.agentId(),
                    settings.commandKey(),
                    settings.journalDir().resolveSibling(LEDGER_FILE),
                    dispatcher,
                    log)) {
                feed.start();
                beat(heartbeats, dispatcher, deviceId);
            } finally {
                dispatcher.shutdown(Duration.ofSeconds(30));
            }
        }
    }

    private void beat(HeartbeatSender heartbeats, JobDispatcher dispatcher, String deviceId) {
        AgentSettings settings = config.settings();
        long intervalMillis = Math.max(1, config.heartbeatInterval().toMillis());
        Duration ackTimeout = Duration.ofMillis(Math.max(5000, intervalMillis));
        int sent = 0;
        boolean lastOk = true;
        while (true) {
            ObjectNode sensors = JsonNodeFactory.instance.objectNode();
            sensors.put(
                    "load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            sensors.put("journal_pending", sink.journal().pendingCount());
            // One heartbeat per running job (each renews its own lease), or one saying idle.
            List<JobDispatcher.Current> jobs = dispatcher.running();
            boolean ok = true;
            for (Optional<JobDispatcher.Current> job : jobs.isEmpty()
                    ? List.of(Optional.<JobDispatcher.Current>empty())
                    : jobs.stream().map(Optional::of).toList()) {
                ok &= heartbeats.send(
                        new Heartbeat(
                                settings.agentId(),
                                bootId,
                                settings.pool(),
                                job.isPresent() ? "running" : "idle",
                                job.map(JobDispatcher.Current::jobId).orElse(null),
                                job.map(JobDispatcher.Current::runId).orElse(null),
                                job.map(JobDispatcher.Current::leaseEpoch).orElse(null),
                                deviceId,
                                config.fingerprint().host().hostname(),
                                sensors,
                                Instant.now(),
                                ++heartbeatSeq),
                        ackTimeout);
            }
            if (ok != lastOk) {
                log.println(ok ? "heartbeats reach Kafka again" : "heartbeat not acknowledged by Kafka");
                lastOk = ok;
            }
            sent++;
            if (config.maxHeartbeats() > 0 && sent >= config.maxHeartbeats()) {
                return;
            }
            synchronized (signal) {
                long deadline = System.nanoTime() + intervalMillis * 1_000_000;
                long left;
                while (!stopped && !wake && (left = deadline - System.nanoTime()) > 0) {
                    try {
                        signal.wait(Math.max(1, left / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                wake = false;
                if (stopped) {
                    return;
                }
            }
        }
    }

    /** A job started or ended: the next heartbeat goes now. */
    private void wake() {
        synchronized (signal) {
            wake = true;
            signal.notifyAll();
        }
    }
}
