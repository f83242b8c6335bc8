package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fleet page over seeded command-side rows: one campaign on two pools, with a job re-run after a lease expiry (its first
 * run superseded), a job running, one waiting and one cancelled. The rows are removed after each test, so the other pages'
 * tests never see an active campaign.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class FleetPageIT {

    static final UUID CAMPAIGN = UUID.fromString("0193a0c0-0000-7000-8000-0000000c0001");
    static final UUID JOB_RERUN = UUID.fromString("0193a0c0-0000-7000-8000-0000000d0001");
    static final UUID JOB_RUNNING = UUID.fromString("0193a0c0-0000-7000-8000-0000000d0002");
    static final UUID JOB_WAITING = UUID.fromString("0193a0c0-0000-7000-8000-0000000d0003");
    static final UUID JOB_CANCELLED = UUID.fromString("0193a0c0-0000-7000-8000-0000000d0004");
    static final UUID RUN_KILLED = UUID.fromString("0193a0c0-0000-7000-8000-0000000e0001");
    static final UUID RUN_RERUN = UUID.fromString("0193a0c0-0000-7000-8000-0000000e0002");
    static final UUID RUN_RUNNING = UUID.fromString("0193a0c0-0000-7000-8000-0000000e0003");
    static final UUID RUN_CANCELLED = UUID.fromString("0193a0c0-0000-7000-8000-0000000e0004");
    static final String CAMPAIGN_NAME = "nightly " + SeedData.XSS_SCRIPT;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @BeforeEach
    void seed() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            update(
                    c,
                    "INSERT INTO campaign (campaign_id, name, spec, pools, schedule, period_seconds, last_issued_at, actor, created_at) "
                            + "VALUES (?, ?, ?::jsonb, ?, 'nightly', 86400, '2026-11-29T18:00:00Z', 'ops', '2026-11-29T18:00:00Z')",
                    CAMPAIGN,
                    CAMPAIGN_NAME,
                    "{\"benchmark\": \"fleet-sleep\", \"matrix\": {\"workers\": [\"0\", \"1\"]}}",
                    new String[] {"gpu-a", "gpu-b"});
            job(c, JOB_RERUN, "gpu-a", "0", "done", 2, RUN_RERUN, "a1", 1);
            job(c, JOB_RUNNING, "gpu-a", "1", "assigned", 1, RUN_RUNNING, "a2", 2);
            job(c, JOB_WAITING, "gpu-b", SeedData.XSS_IMG, "requested", 1, null, null, 3);
            job(c, JOB_CANCELLED, "gpu-b", "1", "cancelled", 1, RUN_CANCELLED, SeedData.HOSTILE_AGENT, 4);
            run(c, RUN_KILLED, JOB_RERUN, "a2", 1, "superseded");
            run(c, RUN_RERUN, JOB_RERUN, "a1", 2, "completed");
            run(c, RUN_RUNNING, JOB_RUNNING, "a2", 1, "running");
            run(c, RUN_CANCELLED, JOB_CANCELLED, SeedData.HOSTILE_AGENT, 1, "cancelled");
            grant(c, JOB_RERUN, 1, RUN_KILLED, "a2");
            grant(c, JOB_RERUN, 2, RUN_RERUN, "a1");
            grant(c, JOB_RUNNING, 1, RUN_RUNNING, "a2");
            grant(c, JOB_CANCELLED, 1, RUN_CANCELLED, SeedData.HOSTILE_AGENT);
            update(
                    c,
                    "INSERT INTO agent_status (agent_id, pool, state, current_job_id, current_run_id, lease_epoch, device_id, hostname, "
                            + "last_heartbeat_at) VALUES ('a2', 'gpu-a', 'running', ?, ?, 1, ?, 'host-a2', now())",
                    JOB_RUNNING,
                    RUN_RUNNING,
                    SeedData.H200);
            update(
                    c,
                    "INSERT INTO agent_status (agent_id, pool, state, device_id, hostname, last_heartbeat_at) "
                            + "VALUES ('a1', 'gpu-a', 'idle', ?, 'host-a1', now() - interval '10 minutes')",
                    SeedData.H200);
            c.commit();
        }
    }

    @AfterEach
    void unseed() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(c, "DELETE FROM job_grant WHERE job_id IN (SELECT job_id FROM job WHERE campaign_id = ?)", CAMPAIGN);
            update(c, "DELETE FROM job WHERE campaign_id = ?", CAMPAIGN);
            update(c, "DELETE FROM campaign_adaptive WHERE campaign_id = ?", CAMPAIGN);
            update(c, "DELETE FROM campaign WHERE campaign_id = ?", CAMPAIGN);
            update(c, "DELETE FROM proj_run WHERE run_id = ANY(?)", (Object)
                    new UUID[] {RUN_KILLED, RUN_RERUN, RUN_RUNNING, RUN_CANCELLED});
            update(c, "DELETE FROM agent_status WHERE agent_id IN ('a1', 'a2')");
        }
    }

    @Test
    void theFleetPageShowsEachJobOfEachPoolWithItsStateEpochRunAndAgent() {
        Document doc = page();
        Element campaign = doc.getElementById("campaign-" + CAMPAIGN);

        assertThat(campaign.selectFirst(".campaign-name").text()).isEqualTo(CAMPAIGN_NAME);
        assertThat(campaign.selectFirst(".schedule").text()).isEqualTo("nightly");
        assertThat(campaign.selectFirst(".created").text()).isEqualTo("2026-11-29 18:00:00Z");
        assertThat(campaign.selectFirst(".counts").text())
                .isEqualTo("4 jobs: 1 requested · 1 assigned · 1 done · 1 cancelled");
        assertThat(campaign.select("table.pools tr").stream().map(Element::text).toList())
                .contains(
                        "gpu-a 1 assigned · 1 done a1, a2",
                        "gpu-b 1 requested · 1 cancelled " + SeedData.HOSTILE_AGENT);

        Element rerun = doc.getElementById("job-" + JOB_RERUN);
        assertThat(rerun.selectFirst(".pool").text()).isEqualTo("gpu-a");
        assertThat(rerun.selectFirst(".point").text()).isEqualTo("workers=0");
        assertThat(rerun.selectFirst(".state").text()).isEqualTo("done");
        assertThat(rerun.selectFirst(".epoch").text()).isEqualTo("2");
        assertThat(rerun.selectFirst(".run a").attr("href")).isEqualTo("/runs/" + RUN_RERUN);
        assertThat(rerun.selectFirst(".agent").text()).isEqualTo("a1");
        assertThat(rerun.selectFirst(".earlier").text()).isEqualTo("epoch 1: superseded on a2");
        assertThat(rerun.selectFirst(".earlier a").attr("href")).isEqualTo("/runs/" + RUN_KILLED);

        Element waiting = doc.getElementById("job-" + JOB_WAITING);
        assertThat(waiting.selectFirst(".state").text()).isEqualTo("requested");
        assertThat(waiting.selectFirst(".run").text()).isEqualTo("—");
        assertThat(doc.getElementById("job-" + JOB_RUNNING).selectFirst(".run").text())
                .isEqualTo("running");
        assertThat(doc.getElementById("job-" + JOB_CANCELLED)
                        .selectFirst(".state")
                        .text())
                .isEqualTo("cancelled");
    }

    @Test
    void fitnessShowsOutliersWithTheirEvidenceSuccessRatesAndTheVersionAudit() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(c, """
                    INSERT INTO proj_fleet_cell (pool, key_id, metric, host_key, device, hostname, agent_id, unit, runs,
                        sum_mean, median, mad, mean_ad, group_n, z, flagged)
                    VALUES ('fit-pool', 'k1', 'train_samples_per_second', 'hk-weak', 'GPU-weak', ?, 'fit-weak',
                        'samples/s', 2, 120.0, 100.0, 2.0, 5.0, 7, -13.49, true),
                        ('fit-pool', 'k1', 'train_samples_per_second', 'hk-ok', 'GPU-ok', 'host-ok', 'fit-ok',
                        'samples/s', 1, 101.0, 100.0, 2.0, 5.0, 7, 0.33725, false)""", SeedData.XSS_SCRIPT);
            update(c, """
                    INSERT INTO proj_fleet_unit (pool, host_key, device, hostname, agent_id, device_id, driver, runtime,
                        firmware, runs, succeeded, invalid, failed, cancelled)
                    VALUES ('fit-pool', 'hk-weak', 'GPU-weak', ?, 'fit-weak', 'nvidia-h100-sxm-80gb', '470.82.01',
                        'CUDA 12.4', NULL, 5, 3, 0, 1, 1),
                        ('fit-pool', 'hk-ok', 'GPU-ok', 'host-ok', 'fit-ok', 'nvidia-h100-sxm-80gb', '550.54.15',
                        'CUDA 12.4', NULL, 1, 0, 0, 0, 0)""", SeedData.XSS_SCRIPT);
        }
        try {
            Document doc = page();

            assertThat(doc.select("#outliers tr.outlier").stream()
                            .map(Element::text)
                            .toList())
                    .containsExactly("fit-pool " + SeedData.XSS_SCRIPT + " GPU-weak k1 train_samples_per_second"
                            + " 60.00 samples/s 100.0 2.00 7 -13.49 2");
            assertThat(doc.select("#success tr.unit").stream()
                            .map(u -> u.selectFirst(".rate").text())
                            .toList())
                    .containsExactlyInAnyOrder("—", "3 of 4 (75.0%)");
            Element weak = doc.select("#audit tr.audit").stream()
                    .filter(r -> r.selectFirst(".host").text().equals(SeedData.XSS_SCRIPT))
                    .findFirst()
                    .orElseThrow();
            assertThat(weak.selectFirst(".driver").text()).isEqualTo("470.82.01 fail (≥ 525.60.13)");
            assertThat(weak.selectFirst(".runtime").text()).isEqualTo("CUDA 12.4 pass (≥ 12.0)");
            assertThat(weak.selectFirst(".firmware").text()).isEqualTo("not reported no minimum");
            assertThat(weak.selectFirst(".verdict").text()).isEqualTo("fail");
            assertThat(doc.select("script")).isEmpty();
            assertThat(given().when()
                            .get("/api/v1/fleet")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("fitness.outliers.device"))
                    .containsExactly("GPU-weak");
        } finally {
            try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
                update(c, "DELETE FROM proj_fleet_cell WHERE pool = 'fit-pool'");
                update(c, "DELETE FROM proj_fleet_unit WHERE pool = 'fit-pool'");
            }
        }
    }

    @Test
    void eachAgentShowsItsStatusCurrentJobDeviceAndPool() {
        Document doc = page();

        Element a2 = agentRow(doc, "a2");
        assertThat(a2.selectFirst(".pool").text()).isEqualTo("gpu-a");
        assertThat(a2.selectFirst(".status").text()).isEqualTo("online");
        assertThat(a2.selectFirst(".state").text()).isEqualTo("running");
        assertThat(a2.selectFirst(".current a").attr("href")).isEqualTo("#job-" + JOB_RUNNING);
        assertThat(a2.text()).contains("NVIDIA H200");
        assertThat(agentRow(doc, "a1").selectFirst(".status").text()).isEqualTo("offline");
    }

    @Test
    void whileJobsAreActiveThePageReloadsItselfWithoutScript() {
        Document doc = page();

        assertThat(doc.select("head meta[http-equiv=refresh]").attr("content")).isEqualTo("5");
        assertThat(doc.getElementById("live").text()).contains("reloads every 5 s");
        assertThat(doc.select("script")).isEmpty();
    }

    @Test
    void aPageWithoutActiveJobsDoesNotReload() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(
                    c,
                    "UPDATE job SET state = 'failed' WHERE campaign_id = ? AND state IN ('requested', 'assigned')",
                    CAMPAIGN);
        }
        Document doc = page();

        assertThat(doc.select("meta[http-equiv=refresh]")).isEmpty();
        assertThat(doc.getElementById("live")).isNull();
        assertThat(given().when()
                        .get("/api/v1/fleet")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getBoolean("active"))
                .isFalse();
    }

    @Test
    void theFleetJsonCarriesTheSameCampaignsJobsAndAgents() {
        JsonPath json = given().when()
                .get("/api/v1/fleet")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String campaign = "campaigns.find { it.campaignId == '" + CAMPAIGN + "' }";

        assertThat(json.getBoolean("active")).isTrue();
        assertThat(json.getInt("refreshSeconds")).isEqualTo(5);
        assertThat(json.getString(campaign + ".name")).isEqualTo(CAMPAIGN_NAME);
        assertThat(json.getMap(campaign + ".states"))
                .containsExactly(
                        Map.entry("requested", 1),
                        Map.entry("assigned", 1),
                        Map.entry("done", 1),
                        Map.entry("failed", 0),
                        Map.entry("cancelled", 1));
        assertThat(json.getList(campaign + ".pools.pool")).containsExactly("gpu-a", "gpu-b");
        String rerun = campaign + ".pools[0].jobs.find { it.jobId == '" + JOB_RERUN + "' }";
        assertThat(json.getString(rerun + ".state")).isEqualTo("done");
        assertThat(json.getInt(rerun + ".leaseEpoch")).isEqualTo(2);
        assertThat(json.getString(rerun + ".runId")).isEqualTo(RUN_RERUN.toString());
        assertThat(json.getString(rerun + ".agentId")).isEqualTo("a1");
        assertThat(json.getMap(rerun + ".parameters")).containsEntry("workers", "0");
        assertThat(json.getList(rerun + ".earlier.runStatus")).containsExactly("superseded");
        assertThat(json.getList(rerun + ".earlier.agentId")).containsExactly("a2");
        assertThat(json.getString("agents.find { it.agentId == 'a2' }.currentJobId"))
                .isEqualTo(JOB_RUNNING.toString());
        assertThat(json.getBoolean("agents.find { it.agentId == 'a2' }.online")).isTrue();
    }

    @Test
    void anAdaptiveCampaignSaysWhereItStandsOnThePageAndInTheJson() throws SQLException {
        String campaign = "campaigns.find { it.campaignId == '" + CAMPAIGN + "' }";
        assertThat(fleetJson().getString(campaign + ".adaptive")).isNull();
        assertThat(page().getElementById("campaign-" + CAMPAIGN).select(".adaptive"))
                .isEmpty();
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(
                    c,
                    "INSERT INTO campaign_adaptive (campaign_id, metric, max_runs, target_half_width_pct, state, "
                            + "jobs_requested) VALUES (?, 'samples_per_second', 5, 2.0, 'cancelled', 4)",
                    CAMPAIGN);
        }

        assertThat(page().getElementById("campaign-" + CAMPAIGN)
                        .selectFirst(".meta .adaptive")
                        .text())
                .isEqualTo("stopped: cancelled");
        assertThat(fleetJson().getString(campaign + ".adaptive")).isEqualTo("cancelled");
    }

    @Test
    void hostileCampaignNamesParametersAndAgentIdsRenderAsText() {
        String html =
                given().when().get("/fleet").then().statusCode(200).extract().asString();
        Document doc = Jsoup.parse(html);

        assertThat(doc.select("script, img, [onerror]")).isEmpty();
        assertThat(html).contains("&lt;script&gt;document.title=").contains("&lt;img src=x onerror=");
        assertThat(doc.getElementById("job-" + JOB_WAITING)
                        .selectFirst(".point")
                        .text())
                .isEqualTo("workers=" + SeedData.XSS_IMG);
        assertThat(doc.getElementById("job-" + JOB_CANCELLED)
                        .selectFirst(".agent")
                        .text())
                .isEqualTo(SeedData.HOSTILE_AGENT);
        assertThat(doc.select("a[href]").eachAttr("href")).allMatch(h -> h.startsWith("/") || h.startsWith("#job-"));
    }

    private static JsonPath fleetJson() {
        return given().when()
                .get("/api/v1/fleet")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static Document page() {
        return Jsoup.parse(
                given().when().get("/fleet").then().statusCode(200).extract().asString());
    }

    private static Element agentRow(Document doc, String agent) {
        return doc.select("#fleet tbody tr").stream()
                .filter(r -> r.selectFirst("td.agent").text().equals(agent))
                .findFirst()
                .orElseThrow();
    }

    private static void job(
            Connection c,
            UUID job,
            String pool,
            String workers,
            String state,
            int epoch,
            UUID run,
            String agent,
            int order)
            throws SQLException {
        update(
                c,
                "INSERT INTO job (job_id, campaign_id, pool, spec, state, lease_epoch, run_id, agent_id, seq, created_at) "
                        + "VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?, 2, timestamptz '2026-11-29T18:00:00Z' + make_interval(secs => ?))",
                job,
                CAMPAIGN,
                pool,
                "{\"benchmark\": \"fleet-sleep\", \"parameters\": {\"seconds\": \"3\", \"workers\": " + json(workers)
                        + "}}",
                state,
                epoch,
                run,
                agent,
                (double) order);
    }

    private static void run(Connection c, UUID run, UUID job, String agent, int epoch, String status)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, lease_epoch, status, started_at, last_position) "
                        + "VALUES (?, ?, ?, ?, ?, ?, '2026-11-29T18:00:05Z', 1)",
                run,
                "run/" + run,
                agent,
                job,
                epoch,
                status);
    }

    private static void grant(Connection c, UUID job, int epoch, UUID run, String agent) throws SQLException {
        update(
                c,
                "INSERT INTO job_grant (job_id, lease_epoch, run_id, agent_id) VALUES (?, ?, ?, ?)",
                job,
                epoch,
                run,
                agent);
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                Object p = params[i];
                if (p instanceof String[] texts) {
                    ps.setArray(i + 1, c.createArrayOf("text", texts));
                } else if (p instanceof UUID[] ids) {
                    ps.setArray(i + 1, c.createArrayOf("uuid", ids));
                } else {
                    ps.setObject(i + 1, p);
                }
            }
            ps.executeUpdate();
        }
    }
}
