package dev.podium.ingest.command;

import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.config.RerunConfig;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Re-runs, on the configured schedule ({@link RerunConfig}, off by default), each stale reproduction that nothing has
 * re-run yet, at most {@code per-tick} a tick, as the actor {@value #ACTOR}. The rows it takes are locked (others
 * skipped), so two ingest instances never re-run the same one.
 */
@ApplicationScoped
public class StaleRerunSchedule {

    static final String ACTOR = "stale-rerun-schedule";
    private static final Logger LOG = Logger.getLogger(StaleRerunSchedule.class);

    private final EnlistedJdbc jdbc;
    private final ReproductionRerunResource reruns;
    private final RerunConfig config;

    public StaleRerunSchedule(EnlistedJdbc jdbc, ReproductionRerunResource reruns, RerunConfig config) {
        this.jdbc = jdbc;
        this.reruns = reruns;
        this.config = config;
    }

    @Scheduled(
            identity = "stale-rerun",
            every = "${podium.reproductions.rerun-stale.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Transactional
    void rerunStale() {
        for (ReproductionRerunResource.Reproduced r : jdbc.call(this::due)) {
            try {
                int status = reruns.rerun(r, ACTOR).getStatus();
                LOG.infof("re-ran stale reproduction %s of %s/%s: %d", r.campaignId(), r.source(), r.claimId(), status);
            } catch (InvalidRequestException e) {
                // Checked before anything is written: the others of the tick still run.
                LOG.warnf("stale reproduction %s cannot be re-run: %s", r.campaignId(), e.getMessage());
            }
        }
    }

    private List<ReproductionRerunResource.Reproduced> due(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + ReproductionRerunResource.COLUMNS + """
                 FROM claim_reproduction cr
                WHERE EXISTS (SELECT 1 FROM proj_reproduction_staleness s
                              WHERE s.campaign_id = cr.campaign_id AND s.stale_since IS NOT NULL
                                AND (? OR s.pool = ANY (?)))
                  AND NOT EXISTS (SELECT 1 FROM claim_reproduction n WHERE n.rerun_of = cr.campaign_id)
                ORDER BY cr.created_at, cr.campaign_id LIMIT ? FOR UPDATE OF cr SKIP LOCKED""")) {
            List<String> pools = config.pools().orElse(List.of());
            ps.setBoolean(1, pools.isEmpty());
            ps.setArray(2, c.createArrayOf("text", pools.toArray()));
            ps.setInt(3, config.perTick());
            List<ReproductionRerunResource.Reproduced> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(ReproductionRerunResource.reproduced(rs));
                }
            }
            return out;
        }
    }
}
