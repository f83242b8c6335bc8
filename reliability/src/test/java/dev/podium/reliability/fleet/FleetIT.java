package dev.podium.reliability.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.podium.reliability.process.IngestProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Fleet benchmarking on a real broker: three agent daemons in two pools (gpu-a: a1, a2; gpu-b: b1) run a campaign, lose
 * a job to a SIGKILL and another to a SIGSTOP, stop a cancelled job, and keep a job through an ingest outage of twice the
 * lease, while the fleet page shows it all. The cases run in order on one fleet, as an operator would meet them, and the
 * last reads the page they left. Prints the fleet path of the campaign's runs (claim, grant, RunStarted as the database
 * recorded them) and a line per case.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** A lease expires, the reaper sees it, the job is offered and claimed again: a few leases at most. */
    private static final Duration REGRANT = Fleet.LEASE.multipliedBy(6).plusSeconds(30);

    private static final Map<String, String> POOLS = Map.of("a1", "gpu-a", "a2", "gpu-a", "b1", "gpu-b");
    private static final Set<String> ENDED = Set.of("done", "failed", "cancelled");
    private static final long STARTED = System.nanoTime();

    private static Fleet fleet;
    private static Path work;
    private static Path campaigns;
    /** Campaigns, jobs and runs of the earlier cases, by name, for the case that reads the page. */
    private static final Map<String, String> seen = new HashMap<>();

    @BeforeAll
    static void start() {
        work = WorkDirs.fresh(Path.of(System.getProperty("podium.reliability.work", "target/reliability"))
                .resolve("fleet"));
        campaigns =
                Path.of(System.getProperty("podium.examples", "../examples")).resolve("campaigns");
        fleet = Fleet.start(
                work,
                Path.of(System.getProperty(
                        "podium.ingest.app", "../ingest-service/target/quarkus-app/quarkus-run.jar")),
                Path.of(System.getProperty("podium.query.app", "../query-service/target/quarkus-app/quarkus-run.jar")));
        POOLS.forEach(fleet::addAgent);
        for (String agent : POOLS.keySet()) {
            within("agent " + agent + " online on /api/v1/fleet", WAIT).until(() -> fleet.online(agent));
        }
        say("agents a1, a2 (pool gpu-a) and b1 (pool gpu-b) online; lease " + Fleet.LEASE.toSeconds() + " s");
    }

    @AfterAll
    static void stop() {
        if (fleet == null) {
            return;
        }
        List<Integer> ports = new ArrayList<>(fleet.platform.ports());
        ports.add(fleet.query.port());
        fleet.close();
        assertThat(ports).as("ports still open after the fleet stopped").noneMatch(Ports::listening);
    }

    @Test
    @Order(1)
    void aCampaignOfSixJobsRunsEachJobOnceInItsPoolWithBothAgentsOfGpuAAtOnce() {
        long t0 = System.nanoTime();
        String c1 = fleet.submit(campaigns.resolve("fleet-sweep.yaml"), "gpu-a,gpu-b", "fleet sweep (e2e)");
        seen.put("c1", c1);
        assertThat(fleet.query.get("/fleet").body())
                .as("the fleet page reloads itself while jobs run")
                .contains("<meta http-equiv=\"refresh\" content=\"5\">");
        int[] mostAssigned = {0};
        within("campaign 1 finished", Duration.ofSeconds(300)).until(() -> {
            mostAssigned[0] = Math.max(
                    mostAssigned[0], onPage(c1).path("states").path("assigned").asInt());
            List<JsonNode> jobs = jobs(c1);
            return jobs.size() == 6
                    && jobs.stream().allMatch(j -> ENDED.contains(j.get("state").asText()));
        });
        double seconds = secondsSince(t0);
        List<JsonNode> jobs = jobs(c1);
        assertThat(jobs)
                .as("every job done")
                .allMatch(j -> "done".equals(j.get("state").asText()));
        assertThat(jobs)
                .as("no job needed a second lease")
                .allMatch(j -> j.get("lease_epoch").asInt() == 1);
        for (String pool : List.of("gpu-a", "gpu-b")) {
            assertThat(jobs.stream()
                            .filter(j -> pool.equals(j.get("pool").asText()))
                            .map(j -> j.get("parameters").get("point").asText())
                            .sorted())
                    .as("points of pool " + pool + ", once each")
                    .containsExactly("1", "2", "3");
        }
        assertThat(jobs)
                .as("every job ran on an agent of its pool")
                .allMatch(j -> j.get("pool")
                        .asText()
                        .equals(POOLS.get(j.get("agent_id").asText())));
        List<String> ids = jobs.stream().map(j -> j.get("job_id").asText()).toList();
        assertThat(fleet.runs(ids, "completed")).as("completed runs").isEqualTo(6);

        double overlap = gpuAOverlapOnTheFleetApi(c1);
        say(String.format(
                "campaign 1: 6/6 jobs done once each in %.1f s; gpu-a: a1 ran %d, a2 ran %d, at the same time for"
                        + " %.1f s; gpu-b: b1 ran 3; up to %d jobs assigned at once; %d runs claimed",
                seconds, ranBy(jobs, "a1"), ranBy(jobs, "a2"), overlap, mostAssigned[0], claimed(ids)));
        say(fleetPath(ids));
    }

    @Test
    @Order(2)
    void theJobOfAKilledAgentGoesToTheOtherAgentOfItsPoolAndTheKilledRunStaysSupersededWhenItComesBack() {
        String c2 = fleet.submit(campaigns.resolve("fleet-long.yaml"), "gpu-a", "fleet long job (e2e: agent killed)");
        String job = firstJob(c2);
        String killed = awaitRunning(job);
        String victim = fleet.job(job).get("agent_id").asText();
        assertThat(victim).as("the agent of campaign 2's job").isIn("a1", "a2");
        String survivor = otherOfGpuA(victim);
        awaitWorkload(victim);
        long kill = System.nanoTime();
        fleet.agent(victim).kill();
        within("campaign 2's job granted again to " + survivor, REGRANT).until(() -> grantedAgain(job, survivor));
        double toRegrant = secondsSince(kill);
        assertThat(fleet.runStatus(killed)).as("the killed run").isEqualTo("superseded");
        within("campaign 2's job done by " + survivor, WAIT)
                .until(() -> "done".equals(fleet.job(job).get("state").asText()));
        double toDone = secondsSince(kill);
        String rerun = fleet.job(job).get("run_id").asText();

        long pending = files(fleet.home(victim).resolve("journal").resolve("pending"));
        long eventsBefore = fleet.events(killed);
        fleet.startAgent(victim, victim + "-again");
        within(victim + " online again", WAIT).until(() -> fleet.online(victim));
        Path journal = fleet.home(victim).resolve("journal").resolve("pending");
        within(victim + "'s journal acknowledged by Kafka", WAIT).until(() -> files(journal) == 0);
        Map<TopicPartition, Long> resent = fleet.platform.eventsEnd();
        within("ingest-service caught up with " + victim + "'s resent journal", WAIT)
                .until(() -> fleet.platform.ingested(resent));
        JsonNode after = fleet.job(job);
        assertThat(List.of(
                        after.get("state").asText(),
                        after.get("lease_epoch").asInt(),
                        after.get("agent_id").asText(),
                        after.get("run_id").asText()))
                .as("campaign 2's job after the killed agent came back")
                .containsExactly("done", 2, survivor, rerun);
        assertThat(fleet.runStatus(killed))
                .as("the killed run after its agent came back")
                .isEqualTo("superseded");
        assertThat(fleet.runs(List.of(job), "completed"))
                .as("completed runs of the job")
                .isEqualTo(1);
        JsonNode shown = onPage(c2).path("pools").path(0).path("jobs").path(0);
        assertThat(List.of(
                        shown.path("state").asText(),
                        shown.path("leaseEpoch").asInt(),
                        shown.path("earlier").size()))
                .as("campaign 2's job on /api/v1/fleet")
                .containsExactly("done", 2, 1);
        JsonNode earlier = shown.path("earlier").path(0);
        assertThat(List.of(
                        earlier.path("runId").asText(),
                        earlier.path("runStatus").asText(),
                        earlier.path("agentId").asText()))
                .as("the superseded lease on /api/v1/fleet")
                .containsExactly(killed, "superseded", victim);
        seen.putAll(Map.of("c2", c2, "j2", job, "killed", killed));
        say(String.format(
                "campaign 2: %s SIGKILLed mid-job; %s granted the job (epoch 2) %.1f s later, done %.1f s after the"
                        + " kill; %s restarted with %d journal entries pending: the killed run's stream went from %d"
                        + " to %d events and stays superseded; 1 completed run of the job",
                victim, survivor, toRegrant, toDone, victim, pending, eventsBefore, fleet.events(killed)));
    }

    @Test
    @Order(3)
    void theLateEventsOfAFrozenAgentAreStoredButItsRunStaysSupersededAndOnlyTheRerunCounts() {
        String c3 = fleet.submit(campaigns.resolve("fleet-long.yaml"), "gpu-a", "fleet long job (e2e: agent frozen)");
        String job = firstJob(c3);
        String frozen = awaitRunning(job);
        String agent = fleet.job(job).get("agent_id").asText();
        assertThat(agent).as("the agent of campaign 3's job").isIn("a1", "a2");
        String other = otherOfGpuA(agent);
        awaitWorkload(agent);
        List<ProcessHandle> tree = fleet.processTree(agent);
        long eventsBefore = fleet.events(frozen);
        long freeze = System.nanoTime();
        fleet.signal("STOP", tree);
        try {
            within("campaign 3's job granted again to " + other, REGRANT).until(() -> grantedAgain(job, other));
        } finally {
            fleet.signal("CONT", tree);
        }
        double toRegrant = secondsSince(freeze);
        within("late events of the frozen run stored", Duration.ofSeconds(60))
                .until(() -> fleet.events(frozen, "RunCancelled", "RunCompleted", "RunFailed") >= 1);
        within("campaign 3's job done by " + other, WAIT)
                .until(() -> "done".equals(fleet.job(job).get("state").asText()));
        JsonNode after = fleet.job(job);
        assertThat(List.of(
                        after.get("lease_epoch").asInt(), after.get("agent_id").asText()))
                .as("campaign 3's job")
                .containsExactly(2, other);
        assertThat(fleet.runStatus(frozen))
                .as("the frozen run after its late events")
                .isEqualTo("superseded");
        assertThat(fleet.runs(List.of(job), "completed"))
                .as("completed runs of the job")
                .isEqualTo(1);
        Object late = fleet.platform
                .store
                .rows(
                        "SELECT string_agg(type, ', ' ORDER BY seq) FROM event_store WHERE stream_id = ? AND seq > ?",
                        "run/" + frozen,
                        eventsBefore)
                .get(0)
                .get(0);
        seen.putAll(Map.of("c3", c3, "j3", job, "frozen", frozen));
        say(String.format(
                "campaign 3: %s SIGSTOPped mid-job; %s granted the job (epoch 2) %.1f s later; after SIGCONT the frozen"
                        + " run reported late (%s: %d -> %d events) and stays superseded; 1 completed run of the job",
                agent, other, toRegrant, late, eventsBefore, fleet.events(frozen)));
    }

    @Test
    @Order(4)
    void aCancelledJobStopsItsWorkloadAndItsRunIsCancelled() {
        String c4 = fleet.submit(campaigns.resolve("fleet-cancel.yaml"), "gpu-b", "fleet job to cancel (e2e)");
        String job = firstJob(c4);
        String run = awaitRunning(job);
        List<ProcessHandle> workload = awaitWorkload("b1");
        long cancel = System.nanoTime();
        fleet.cancel(job, "e2e: cancel a long job");
        within("campaign 4's run cancelled and its workload gone", WAIT)
                .until(() -> "cancelled".equals(fleet.runStatus(run))
                        && workload.stream().noneMatch(ProcessHandle::isAlive));
        double took = secondsSince(cancel);
        assertThat(fleet.job(job).get("state").asText()).as("campaign 4's job").isEqualTo("cancelled");
        assertThat(stream(fleet.run(run).path("events").path("rows"))
                        .map(e -> e.path("type").asText()))
                .as("events of the cancelled run")
                .contains("RunCancelled");
        seen.putAll(Map.of("c4", c4, "j4", job));
        say(String.format(
                "campaign 4: cancelled while running on b1: RunCancelled stored and the workload gone after %.1f s",
                took));
    }

    @Test
    @Order(5)
    void anIngestOutageOfTwiceTheLeaseExpiresNoLeaseWhoseAgentKeptBeating() {
        String c5 = fleet.submit(campaigns.resolve("fleet-cancel.yaml"), "gpu-b", "fleet job across an ingest outage");
        String job = firstJob(c5);
        String run = awaitRunning(job);
        awaitWorkload("b1");
        Duration down = Fleet.LEASE.multipliedBy(2);
        fleet.platform.ingest.stop();
        await().pollDelay(down).atMost(down.plusSeconds(1)).until(() -> true);
        long restart = System.nanoTime();
        fleet.platform.ingest.restart();
        double toReady = secondsSince(restart);
        // The reaper may look a lease after start, once the heartbeats sent meanwhile are read; two ticks more.
        Duration watch = Fleet.LEASE.plusSeconds(2);
        await("campaign 5's job still b1's run, epoch 1")
                .during(watch)
                .atMost(watch.plusSeconds(5))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    JsonNode j = fleet.job(job);
                    return "assigned".equals(j.get("state").asText())
                            && j.get("lease_epoch").asInt() == 1
                            && run.equals(j.get("run_id").asText());
                });
        assertThat(fleet.platform.store.count(
                        "SELECT count(*) FROM event_store WHERE stream_id = ? AND type = 'JobLeaseExpired'",
                        "job/" + job))
                .as("leases expired")
                .isZero();
        fleet.cancel(job, "e2e: the outage is over");
        within("campaign 5's run cancelled", WAIT).until(() -> "cancelled".equals(fleet.runStatus(run)));
        say(String.format(
                "campaign 5: ingest down %d s (twice the lease) while b1 ran its job, ready %.1f s after its restart;"
                        + " a lease later the job is still b1's (epoch 1), no lease expired",
                down.toSeconds(), toReady));
    }

    @Test
    @Order(6)
    void theFleetPageShowsEveryCampaignTheSupersededRunsAndTheCancelAndNoLongerReloads() {
        assertThat(seen).as("what the cases before left").containsKeys("c1", "c2", "c3", "c4", "j2", "j3", "j4");
        var page = fleet.query.get("/fleet");
        assertThat(page.status()).isEqualTo(200);
        String html = page.body();
        for (String c : List.of("c1", "c2", "c3", "c4")) {
            assertThat(html).contains("id=\"campaign-" + seen.get(c) + "\"");
        }
        assertThat(Pattern.compile("<tr class=\"job\"").matcher(html).results().count())
                .as("job rows")
                .isGreaterThanOrEqualTo(9);
        assertThat(row(html, seen.get("j2"))).contains("/runs/" + seen.get("killed"), "epoch 1: ", "superseded");
        assertThat(row(html, seen.get("j3"))).contains("/runs/" + seen.get("frozen"), "epoch 1: ", "superseded");
        assertThat(row(html, seen.get("j4"))).contains("cancelled");
        for (String agent : POOLS.keySet()) {
            assertThat(html).contains("<td class=\"agent\">" + agent + "</td>");
        }
        assertThat(html).doesNotContain("<script");
        assertThat(html).as("the fleet page with no job active").doesNotContain("http-equiv=\"refresh\"");
        JsonNode api = fleet.fleet();
        write("fleet.html", html);
        write("fleet.json", api.toString());
        Map<String, Integer> states = new TreeMap<>();
        stream(api.path("campaigns"))
                .forEach(c -> c.path("states").fields().forEachRemaining(e -> {
                    if (e.getValue().asInt() > 0) {
                        states.merge(e.getKey(), e.getValue().asInt(), Integer::sum);
                    }
                }));
        say("fleet page: " + api.path("online").asText() + " agents online; jobs of the 4 campaigns: " + states
                + "; no reload once nothing is active");
    }

    /**
     * A job's workload as a thief would write it: it reads every process's environment and command line (ingest's holds
     * the master key and the admin token), the platform's state directory (every agent's key file, the admin token and
     * the master key, mode 600, as {@code ./podium up} keeps them) and the agents' journals, into {@code found.txt} in
     * its working directory. b1 runs it as the user nobody (the agent is root), n1 in namespaces as a non-root agent
     * would ({@code --isolation namespace}), and u1 with isolation off, which shows that the probe finds the secrets
     * where nothing keeps it away.
     */
    @Test
    @Order(7)
    void aWorkloadReadsNoneOfTheAgentsOrThePlatformsSecretsUnlessIsolationIsOff() throws IOException {
        long t0 = System.nanoTime();
        fleet.keepSecret("admin-token", fleet.platform.admin.token());
        fleet.keepSecret("master-key", IngestProcess.MASTER_KEY);
        fleet.addAgent("n1", "namespaced", "--isolation", "namespace");
        fleet.addAgent("u1", "unisolated", "--isolation", "off");
        for (String agent : List.of("n1", "u1")) {
            within("agent " + agent + " online", WAIT).until(() -> fleet.online(agent));
        }
        Path spec = Files.writeString(work.resolve("isolation-probe.yaml"), """
                name: isolation probe
                pools: [local]
                spec:
                  benchmark: isolation-probe
                  adapter: command
                  parser: jsonl
                  command:
                    - bash
                    - -c
                    - |
                      exec 3>&1 > found.txt 2>&1
                      for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' '\\n' < "$f"; echo; done
                      ls -laR "$1"
                      cat "$1"/* "$1"/.[!.]*
                      cat "$2"/*/journal/*/* "$2"/*/jobs-read-ledger
                      echo "probe-$((40 + 2))"
                      exec >&3 2>&1
                      echo '{"podium": 1, "type": "metric", "name": "train_samples_per_second", "value": 1.0}'
                    - podium-isolation-probe
                    - "%s"
                    - "%s"
                  repetitions: 1
                  warmup_steps: 0
                  timeout_seconds: 120
                  nodes: 1
                  devices_per_node: 1
                """.formatted(
                        fleet.state(), fleet.home("b1").getParent()));
        String campaign = fleet.submit(spec, "gpu-b,namespaced,unisolated", "isolation probe (e2e)");
        within("the probe ran on b1, n1 and u1", WAIT).until(() -> {
            List<JsonNode> jobs = jobs(campaign);
            return jobs.size() == 3
                    && jobs.stream().allMatch(j -> ENDED.contains(j.get("state").asText()));
        });
        assertThat(jobs(campaign))
                .as("every probe ran")
                .allMatch(j -> "done".equals(j.get("state").asText()));

        List<String> secrets = new ArrayList<>(List.of(fleet.platform.admin.token(), IngestProcess.MASTER_KEY));
        try (Stream<Path> keys = Files.list(fleet.state())) {
            for (Path key : keys.filter(k -> k.toString().endsWith(".key")).toList()) {
                secrets.add(Files.readAllLines(key).stream()
                        .filter(l -> l.startsWith("key.secret="))
                        .findFirst()
                        .orElseThrow()
                        .substring("key.secret=".length()));
            }
        }
        for (String agent : List.of("b1", "n1")) {
            String found = found(agent);
            write("found-" + agent + ".txt", found);
            assertThat(found).as("what %s's workload read, to its end", agent).contains("probe-42");
            assertThat(found)
                    .as("what %s's workload read", agent)
                    .doesNotContain(secrets)
                    .doesNotContain("key.secret=");
        }
        String unisolated = found("u1");
        assertThat(unisolated)
                .as("the probe, with isolation off, finds the secrets it looks for")
                .contains(fleet.platform.admin.token(), IngestProcess.MASTER_KEY, "key.secret=");
        say(String.format(
                "isolation: b1 (as nobody) and n1 (namespaces) read none of %d secrets; u1 (off) read them; %.1f s",
                secrets.size(), secondsSince(t0)));
    }

    /**
     * Campaign 1 as /api/v1/fleet shows it: six jobs done, no superseded lease, the jobs of gpu-a on both its agents;
     * the longest time a1 and a2 ran at once, in seconds.
     */
    private static double gpuAOverlapOnTheFleetApi(String campaign) {
        JsonNode page = onPage(campaign);
        assertThat(page.path("states").path("done").asInt())
                .as("done jobs on /api/v1/fleet")
                .isEqualTo(6);
        assertThat(stream(page.path("pools"))
                        .flatMap(p -> stream(p.path("jobs")))
                        .mapToInt(j -> j.path("earlier").size())
                        .sum())
                .as("superseded leases on /api/v1/fleet")
                .isZero();
        List<JsonNode> gpuA = stream(page.path("pools"))
                .filter(p -> "gpu-a".equals(p.path("pool").asText()))
                .flatMap(p -> stream(p.path("jobs")))
                .toList();
        assertThat(new TreeSet<>(
                        gpuA.stream().map(j -> j.path("agentId").asText()).toList()))
                .as("agents that ran the jobs of gpu-a")
                .containsExactly("a1", "a2");
        double overlap = longestOverlap(gpuA);
        assertThat(overlap).as("seconds a1 and a2 ran jobs at the same time").isPositive();
        return overlap;
    }

    private static ConditionFactory within(String what, Duration limit) {
        return await(what).atMost(limit).pollInterval(Duration.ofMillis(500));
    }

    private static List<JsonNode> jobs(String campaign) {
        return stream(fleet.campaign(campaign).path("jobs")).toList();
    }

    private static String firstJob(String campaign) {
        return fleet.campaign(campaign).get("jobs").get(0).get("job_id").asText();
    }

    /** The campaign as /api/v1/fleet shows it. */
    private static JsonNode onPage(String campaign) {
        return stream(fleet.fleet().path("campaigns"))
                .filter(c -> campaign.equals(c.path("campaignId").asText()))
                .findFirst()
                .orElse(MissingNode.getInstance());
    }

    private static String awaitRunning(String job) {
        within("job " + job + " running", WAIT)
                .until(() -> fleet.runningRun(job).isPresent());
        return fleet.runningRun(job).orElseThrow();
    }

    /** The processes below the agent's daemon once there are any: the workload of its job. */
    private static List<ProcessHandle> awaitWorkload(String agent) {
        within(agent + "'s workload running", WAIT)
                .until(() -> fleet.processTree(agent).size() > 1);
        return fleet.processTree(agent).stream().skip(1).toList();
    }

    private static boolean grantedAgain(String job, String agent) {
        JsonNode j = fleet.job(job);
        return j.get("lease_epoch").asInt() == 2
                && agent.equals(j.get("agent_id").asText())
                && !j.path("run_id").isNull();
    }

    private static String otherOfGpuA(String agent) {
        return "a1".equals(agent) ? "a2" : "a1";
    }

    private static long ranBy(List<JsonNode> jobs, String agent) {
        return jobs.stream()
                .filter(j -> agent.equals(j.get("agent_id").asText()))
                .count();
    }

    private static long claimed(List<String> jobs) {
        return fleet.platform.store.count(
                "SELECT count(*) FROM proj_run WHERE job_id = ANY (?::uuid[])", (Object) jobs.toArray(String[]::new));
    }

    /** The longest time two jobs of different agents ran at once, in seconds. */
    private static double longestOverlap(List<JsonNode> jobs) {
        double best = 0;
        for (JsonNode a : jobs) {
            for (JsonNode b : jobs) {
                if (a.path("agentId").asText().compareTo(b.path("agentId").asText()) < 0) {
                    double start = Math.max(epoch(a, "startedAt"), epoch(b, "startedAt"));
                    double end = Math.min(epoch(a, "finishedAt"), epoch(b, "finishedAt"));
                    best = Math.max(best, end - start);
                }
            }
        }
        return best;
    }

    private static double epoch(JsonNode job, String field) {
        return Instant.parse(job.path(field).asText()).toEpochMilli() / 1000.0;
    }

    /**
     * The fleet path of the jobs' runs, each step as the database recorded it: ingest stored the JobClaimed, granted
     * the claim, stored the RunStarted of the granted run.
     */
    private static String fleetPath(List<String> jobs) {
        List<Object> r = fleet.platform
                .store
                .rows("""
                        SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY g), max(g),
                               percentile_cont(0.5) WITHIN GROUP (ORDER BY s), max(s)
                        FROM (SELECT extract(epoch FROM jg.granted_at - c.recorded_at)::float8 AS g,
                                     extract(epoch FROM r.recorded_at - jg.granted_at)::float8 AS s
                              FROM job_grant jg
                              JOIN event_store c ON c.stream_id = 'run/' || jg.run_id AND c.type = 'JobClaimed'
                              JOIN event_store r ON r.stream_id = 'run/' || jg.run_id AND r.type = 'RunStarted'
                              WHERE jg.job_id = ANY (?::uuid[])) t""", (Object) jobs.toArray(String[]::new))
                .get(0);
        return String.format(
                "fleet path of %s runs: claim -> grant p50 %.2f s, max %.2f s; grant -> RunStarted stored p50 %.2f s,"
                        + " max %.2f s",
                r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
    }

    /** The page's table row of a job. */
    private static String row(String html, String job) {
        String from = html.substring(html.indexOf("id=\"job-" + job + "\""));
        return from.substring(0, from.indexOf("</tr>"));
    }

    /** What the isolation probe of {@code agent} wrote (journal records among it, so not UTF-8). */
    private static String found(String agent) throws IOException {
        return new String(
                Files.readAllBytes(fleet.home(agent).resolve("workload/run/found.txt")), StandardCharsets.ISO_8859_1);
    }

    /** Kept beside the processes' logs, for a reader of a failed run. */
    private static void write(String name, String content) {
        try {
            Files.writeString(work.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long files(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> all = Files.list(dir)) {
            return all.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static void say(String line) {
        System.out.printf("[fleet %3d s] %s%n", (System.nanoTime() - STARTED) / 1_000_000_000L, line);
    }
}
