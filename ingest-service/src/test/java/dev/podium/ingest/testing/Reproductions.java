package dev.podium.ingest.testing;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Software;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A published workers-ratio claim of a new source, and its reproduction made through the admin API. */
public final class Reproductions {

    public static final ComparisonKey KEY = SampleEvents.referenceKey(0);

    private Reproductions() {}

    /** A reproduction of a published workers ratio on these pools; its campaign id. */
    public static UUID reproduce(String pools) {
        return reproduce(pools, null);
    }

    /** As {@link #reproduce(String)}, at {@code devices} accelerators a run (null: the claim's own number). */
    public static UUID reproduce(String pools, String devices) {
        String source = "stale-" + UUID.randomUUID().toString().substring(0, 8);
        String file = """
                source: %s
                title: "Workers"
                defaults:
                  metric: train_samples_per_second
                  unit: samples/s
                  direction: HIGHER_IS_BETTER
                  device_count: 8
                  key: {benchmark: stale-test, total_accelerators: 8, extra: {dataloader: default}}
                claims:
                  - {id: w0, quote: "336.5", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "0"}}, value: 336.5, decimals: 1}
                  - {id: w1, quote: "580.1", device: NVIDIA H100 GPU, key: {extra: {dataloader_num_workers: "1"}}, value: 580.1, decimals: 1}
                  - id: w1-vs-w0
                    quote: "1.72x"
                    device: NVIDIA H100 GPU
                    ratio: {baseline: NVIDIA H100 GPU at workers=0, numerator: w1, denominator: w0, form: TIMES}
                    value: 1.72
                    decimals: 2
                """.formatted(source);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType("application/yaml")
                .body(file.getBytes(StandardCharsets.UTF_8))
                .post("/admin/published?file=stale.yaml")
                .then()
                .statusCode(200);
        return UUID.fromString(given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .queryParam("pools", pools)
                .queryParams(devices == null ? Map.of() : Map.of("devices", devices))
                .post("/admin/claims/" + source + "/w1-vs-w0/reproduce")
                .then()
                .statusCode(201)
                .extract()
                .path("campaign_id"));
    }

    public static UUID job(Db db, UUID campaign, String pool) {
        return (UUID) db.one(
                "SELECT job_id FROM job WHERE campaign_id = ? AND pool = ? ORDER BY job_id LIMIT 1", campaign, pool);
    }

    /** A job of a new campaign (not a reproduction) in {@code pool}. */
    public static UUID otherJob(String pool) {
        return UUID.fromString(
                FleetJobs.submit(Map.of("name", "other", "pools", List.of(pool), "spec", FleetJobs.spec(Map.of())))
                        .getList("job_ids", String.class)
                        .get(0));
    }

    public static UUID startGranted(Db db, UUID job, String pool, String torch, String runtime) {
        return startGranted(db, job, pool, torch, runtime, Instant.now());
    }

    /**
     * A new agent of the pool claims the job, waits for its grant, then starts the run with these versions and waits
     * until it is stored; the run id.
     */
    public static UUID startGranted(Db db, UUID job, String pool, String torch, String runtime, Instant at) {
        TestAgent agent = TestAgent.register("stale", pool);
        UUID run = FleetJobs.claim(agent, job, pool);
        await().atMost(WAIT)
                .until(() ->
                        db.count("SELECT count(*) FROM proj_job_assignment WHERE job_id = ? AND run_id = ?", job, run)
                                == 1);
        Envelope e = withVersions(
                SampleEvents.runStartedForJob(run, job, 1, 2, agent.agentId(), "nvidia-h100-pcie-80gb", KEY, at),
                torch,
                runtime);
        agent.sendAndWait(db, List.of(e));
        return run;
    }

    public static Envelope started(UUID run, UUID job, TestAgent agent, String torch, String runtime) {
        return withVersions(
                SampleEvents.runStartedForJob(
                        run, job, 1, 1, agent.agentId(), "nvidia-h100-pcie-80gb", KEY, Instant.now()),
                torch,
                runtime);
    }

    /** The RunStarted with this pytorch version and this runtime on its accelerators. */
    public static Envelope withVersions(Envelope e, String torch, String runtime) {
        RunStarted r = (RunStarted) e.payload();
        Software s = r.software();
        List<Accelerator> accelerators = new ArrayList<>();
        for (Accelerator x : r.accelerators()) {
            accelerators.add(new Accelerator(
                    x.vendor(),
                    x.model(),
                    x.deviceId(),
                    x.memoryBytes(),
                    x.countPerNode(),
                    x.total(),
                    x.interconnect(),
                    x.driver(),
                    x.firmware(),
                    runtime));
        }
        RunStarted changed = new RunStarted(
                r.runId(),
                r.jobId(),
                r.leaseEpoch(),
                r.host(),
                accelerators,
                new Software(
                        s.framework(),
                        torch,
                        s.pythonVersion(),
                        s.libraries(),
                        s.containerImageDigest(),
                        s.workloadCommit()),
                r.workload(),
                r.key(),
                r.repetitions(),
                r.warmupSteps(),
                r.provenance(),
                r.devices());
        return new Envelope(
                e.eventId(), e.type(), e.schemaVersion(), e.streamId(), e.seq(), e.agentId(), e.occurredAt(), changed);
    }
}
