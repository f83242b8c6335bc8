package dev.podium.reliability.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.cli.AgentMain;
import dev.podium.reliability.fault.Platform;
import dev.podium.reliability.process.ChildProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.QueryProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A fleet on real processes: Kafka, PostgreSQL, ingest-service with a short lease and query-service as packaged
 * applications, and runner-agent daemons in pools, each in a JVM of its own that the tests can SIGKILL or SIGSTOP. Read
 * through the operator's API ({@code /admin/...}) and the visitor's ({@code /api/v1/...}).
 */
final class Fleet implements AutoCloseable {

    static final Duration LEASE = Duration.ofSeconds(8);
    private static final ObjectMapper JSON = new ObjectMapper();

    final Platform platform;
    final QueryProcess query;
    private final Path work;
    private final Map<String, Path> keyFiles = new HashMap<>();
    private final Map<String, ChildProcess> agents = new HashMap<>();
    private final Map<String, List<String>> isolation = new HashMap<>();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private Fleet(Path work, Platform platform, QueryProcess query) {
        this.work = work;
        this.platform = platform;
        this.query = query;
    }

    /** The platform with a lease of {@link #LEASE} and a reaper every second, and a 10 s online window on the pages. */
    static Fleet start(Path work, Path ingestJar, Path queryJar) {
        Platform platform = Platform.start(
                work,
                ingestJar,
                List.of(
                        "-XX:TieredStopAtLevel=1",
                        "-Dpodium.ingest.jobs.lease-duration=" + LEASE.toSeconds() + "s",
                        "-Dpodium.ingest.jobs.reaper-interval=1s",
                        "-Dpodium.ingest.jobs.relay-interval=200ms",
                        // the fleet campaigns' workload is a bash script, in every pool
                        "-Dpodium.ingest.workloads.commands=bash"));
        QueryProcess query = new QueryProcess("query", queryJar, work, Ports.freeRun(1), platform.postgres.jdbcUrl());
        try {
            // As /var/lib/podium-agent is: others may pass through to a workload directory, not list the homes.
            Files.setPosixFilePermissions(platform.agentHomes, PosixFilePermissions.fromString("rwx--x--x"));
            query.start(List.of("-XX:TieredStopAtLevel=1", "-Dpodium.query.online-window=PT10S"));
        } catch (IOException e) {
            platform.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            platform.close();
            throw e;
        }
        return new Fleet(work, platform, query);
    }

    /**
     * The platform's state as {@code ./podium up} keeps it: the agents' key files, the admin token and the master key,
     * each of mode 600, in a directory of their own.
     */
    Path state() {
        return work.resolve(".podium");
    }

    /**
     * Registers {@code agent} in {@code pool}, writes its key file as podium-admin users do and starts its daemon, which
     * runs workloads as the user nobody ({@code isolation} adds to or replaces that).
     */
    void addAgent(String agent, String pool, String... isolation) {
        try {
            Files.createDirectories(state());
            Path keyFile = Files.writeString(state().resolve(agent + ".key"), platform.admin.keyFile(agent, pool));
            Files.setPosixFilePermissions(keyFile, OWNER_ONLY);
            keyFiles.put(agent, keyFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.isolation.put(agent, isolation.length > 0 ? List.of(isolation) : List.of("--workload-user", "nobody"));
        startAgent(agent, agent);
    }

    /** Writes a secret of the platform into {@link #state()}, as {@code ./podium up} writes its admin token. */
    void keepSecret(String name, String value) {
        try {
            Files.setPosixFilePermissions(Files.writeString(state().resolve(name), value), OWNER_ONLY);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the daemon of {@code agent} (again: same key, same home, so its journal is resent) logging to log. */
    void startAgent(String agent, String log) {
        agents.put(
                agent,
                ChildProcess.java(
                        log,
                        work.resolve(log + ".log"),
                        List.of("-Xmx160m", "-XX:TieredStopAtLevel=1"),
                        AgentMain.class.getName(),
                        Stream.concat(
                                        Stream.of(
                                                "daemon",
                                                "--key-file",
                                                keyFiles.get(agent).toString(),
                                                "--home",
                                                home(agent).toString(),
                                                "--bootstrap-servers",
                                                platform.bootstrap(),
                                                "--heartbeat-interval",
                                                "1",
                                                "--claim-timeout",
                                                "15",
                                                "--flush-timeout",
                                                "5",
                                                "--allow-commands",
                                                "bash"),
                                        isolation.get(agent).stream())
                                .toList()));
    }

    ChildProcess agent(String agent) {
        return agents.get(agent);
    }

    Path home(String agent) {
        return platform.agentHomes.resolve("home-" + agent);
    }

    /** The agent's daemon and every process below it (its workload), as they are now. */
    List<ProcessHandle> processTree(String agent) {
        ProcessHandle daemon = ProcessHandle.of(agent(agent).pid()).orElseThrow();
        return Stream.concat(Stream.of(daemon), daemon.descendants()).toList();
    }

    /** kill -STOP or -CONT to each of {@code processes}. */
    void signal(String signal, List<ProcessHandle> processes) {
        if (processes.isEmpty()) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        processes.forEach(p -> cmd.add(Long.toString(p.pid())));
        try {
            new ProcessBuilder(cmd).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    JsonNode fleet() {
        return json(query.get("/api/v1/fleet"));
    }

    boolean online(String agent) {
        for (JsonNode a : fleet().path("agents")) {
            if (agent.equals(a.path("agentId").asText()) && a.path("online").asBoolean()) {
                return true;
            }
        }
        return false;
    }

    /** {@code podium-admin campaign submit FILE --pools P --name N}: the campaign's id. */
    String submit(Path file, String pools, String name) {
        try {
            return platform.admin
                    .post(
                            "/admin/campaigns?pools=" + encode(pools) + "&name=" + encode(name),
                            "application/yaml",
                            Files.readString(file),
                            201)
                    .get("campaign_id")
                    .asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode campaign(String id) {
        return adminJson("/admin/campaigns/" + id);
    }

    JsonNode job(String id) {
        return adminJson("/admin/jobs/" + id);
    }

    void cancel(String job, String reason) {
        platform.admin.post(
                "/admin/jobs/" + job + "/cancel",
                JSON.createObjectNode().put("reason", reason).toString(),
                200);
    }

    /** The run's status on {@code /api/v1/runs/{id}}, empty while the pages do not know it. */
    String runStatus(String run) {
        return run(run).path("run").path("status").asText("");
    }

    JsonNode run(String run) {
        return json(query.get("/api/v1/runs/" + run));
    }

    /** The run of an assigned job once the pages show it running. */
    Optional<String> runningRun(String job) {
        JsonNode j = job(job);
        String run = j.path("run_id").asText("");
        boolean running = "assigned".equals(j.path("state").asText()) && !run.isEmpty() && !"null".equals(run);
        return running && "running".equals(runStatus(run)) ? Optional.of(run) : Optional.empty();
    }

    /** Events of the run's stream in event_store, of any of {@code types} (all when none given). */
    long events(String run, String... types) {
        if (types.length == 0) {
            return platform.store.count("SELECT count(*) FROM event_store WHERE stream_id = ?", "run/" + run);
        }
        return platform.store.count(
                "SELECT count(*) FROM event_store WHERE stream_id = ? AND type = ANY (?)", "run/" + run, types);
    }

    /** Runs of the jobs with {@code status} in the read model. */
    long runs(List<String> jobs, String status) {
        return platform.store.count(
                "SELECT count(*) FROM proj_run WHERE job_id = ANY (?::uuid[]) AND status = ?",
                jobs.toArray(String[]::new),
                status);
    }

    private JsonNode adminJson(String path) {
        var answer = platform.admin.get(path);
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + answer.statusCode() + ": " + answer.body());
        }
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(QueryProcess.Page page) {
        if (page.status() != 200) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(page.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Stops the agents (their workloads too, should one outlive its daemon), query-service and the platform. */
    @Override
    public void close() {
        try {
            for (String agent : agents.keySet()) {
                List<ProcessHandle> tree = agent(agent).isAlive() ? processTree(agent) : List.of();
                signal("CONT", tree);
                agent(agent).stop();
                tree.forEach(ProcessHandle::destroyForcibly);
            }
        } finally {
            try {
                query.close();
            } finally {
                platform.close();
            }
        }
    }
}
