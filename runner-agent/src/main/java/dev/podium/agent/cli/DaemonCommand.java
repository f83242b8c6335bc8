package dev.podium.agent.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.agent.AgentVersion;
import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.publish.Heartbeat;
import dev.podium.agent.publish.HeartbeatSender;
import dev.podium.events.StreamId;
import dev.podium.events.agent.AgentRegistered;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Register this agent (AgentRegistered on a new agent stream) and send signed heartbeats to "
                + "podium.heartbeats until stopped. Taking jobs from podium.jobs comes with the fleet protocol (issue 8)."})
public final class DaemonCommand implements Callable<Integer> {

    @Mixin
    AgentOptions options;

    @Option(names = "--heartbeat-interval", defaultValue = "10", paramLabel = "SECONDS",
            description = "Seconds between heartbeats (default: ${DEFAULT-VALUE}).")
    int intervalSeconds;

    @Option(names = "--heartbeats", defaultValue = "0", paramLabel = "N", description = "Stop after N heartbeats (0: run until stopped).")
    int maxHeartbeats;

    @Override
    public Integer call() throws Exception {
        AgentSettings settings = options.settings();
        if (settings.bootstrapServers() == null) {
            System.err.println("podium-agent: the daemon needs Kafka: --bootstrap-servers or kafka.bootstrap.servers in the key file");
            return 2;
        }
        ToolRunner tools = new ToolRunner();
        Fingerprint fp = new HostDetector(tools).detect(new PythonProbe(PythonProbe.defaultPython(), tools));
        UUID bootId = UUID.randomUUID();
        String deviceId = fp.accelerators().isEmpty() ? HostDetector.cpuAsAccelerator(fp.host()).deviceId()
                : fp.accelerators().get(0).deviceId();
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        try (Publishing pub = new Publishing(settings, options.flushTimeoutSeconds, System.err);
                HeartbeatSender heartbeats = new HeartbeatSender(settings.bootstrapServers(), pub.sink)) {
            pub.sink.stream(StreamId.agent(settings.agentId(), bootId)).emit(new AgentRegistered(settings.agentId(), bootId,
                    settings.pool(), AgentVersion.VERSION, fp.host(), fp.accelerators(), fp.software()));
            System.err.println("agent " + settings.agentId() + " registered (boot " + bootId + ", pool " + settings.pool() + ")");
            int sent = 0;
            boolean lastOk = true;
            do {
                ObjectNode sensors = JsonNodeFactory.instance.objectNode();
                sensors.put("load_average", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                sensors.put("journal_pending", pub.journal.pendingCount());
                boolean ok = heartbeats.send(new Heartbeat(settings.agentId(), bootId, settings.pool(), "idle", null, null, null,
                        deviceId, fp.host().hostname(), sensors, Instant.now()), Duration.ofSeconds(Math.max(5, intervalSeconds)));
                if (ok != lastOk) {
                    System.err.println(ok ? "heartbeats reach Kafka again" : "heartbeat not acknowledged by Kafka");
                    lastOk = ok;
                }
                sent++;
                if (maxHeartbeats > 0 && sent >= maxHeartbeats) {
                    break;
                }
            } while (!stop.await(intervalSeconds, TimeUnit.SECONDS));
            pub.flush();
        }
        return 0;
    }
}
