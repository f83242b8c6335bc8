package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static dev.podium.ingest.testing.FleetJobs.claim;
import static dev.podium.ingest.testing.FleetJobs.pool;
import static dev.podium.ingest.testing.FleetJobs.spec;
import static dev.podium.ingest.testing.FleetJobs.submit;
import static dev.podium.ingest.testing.FleetJobs.uuids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A campaign submitted with {@code exclude_flagged} is granted to no agent whose host or accelerator the fleet view
 * flags (a flagged {@code proj_fleet_cell} row, as ingest's fleet projection writes one): the flagged agent's correctly
 * signed claim is refused, a healthy agent's claim of the same job is granted, and a campaign without the option still
 * takes the flagged agent.
 */
@QuarkusTest
class ExcludeFlaggedIT {

    @Inject
    AgroalDataSource dataSource;

    private String pool;

    @AfterEach
    void removeFlags() {
        new Db(dataSource).execute("DELETE FROM proj_fleet_cell WHERE pool = ?", pool);
    }

    @Test
    void aCampaignThatExcludesFlaggedHostsIsNotGrantedToAFlaggedAgent() {
        Db db = new Db(dataSource);
        pool = pool("flagged");
        TestAgent flagged = TestAgent.register("fleet-flagged", pool);
        TestAgent healthy = TestAgent.register("fleet-healthy", pool);
        db.execute("""
                INSERT INTO proj_fleet_cell (pool, key_id, metric, host_key, device, hostname, agent_id, runs, sum_mean,
                    median, mad, group_n, z, flagged)
                VALUES (?, 'k', 'train_samples_per_second', 'hk', 'GPU-weak', 'host', ?, 1, 60, 100, 2, 7, -13.49, true)""", pool, flagged.agentId());
        UUID job = job("exclusive", true);

        UUID refused = claim(flagged, job, pool);
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE stream_id = ?", "run/" + refused) == 1);
        assertThat(db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", refused))
                .isZero();
        assertThat(db.one("SELECT state FROM job WHERE job_id = ?", job)).isEqualTo("requested");

        UUID granted = claim(healthy, job, pool);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", granted) == 1);

        UUID open = job("open", false);
        UUID taken = claim(flagged, open, pool);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", taken) == 1);
    }

    private UUID job(String name, boolean excludeFlagged) {
        Map<String, Object> campaign = new HashMap<>();
        campaign.put("name", name);
        campaign.put("pools", List.of(pool));
        campaign.put("spec", spec(Map.of()));
        campaign.put("exclude_flagged", excludeFlagged);
        return uuids(submit(campaign).getList("job_ids", String.class)).get(0);
    }
}
