package dev.podium.ingest.projection;

import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.IdentityBinding;
import dev.podium.events.validate.Violation;
import dev.podium.ingest.history.HistoryTouches;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Every read model, applied in position order, then the aggregates for what the events touched. Live ingest, the
 * command side and rebuild all go through here, and all of them hold {@link #LOCK} (shared; rebuild exclusively) for
 * their transaction, so a rebuild never interleaves with a batch.
 */
@ApplicationScoped
public class Projections {

    private static final Logger LOG = Logger.getLogger(Projections.class);

    /** The advisory lock key that orders rebuilds against batches. */
    public static final long LOCK = 0x706f6469756d01L;

    /** Read models in the order an event is applied to them: the run row exists before its results. */
    private final List<Projection> models;

    private final LeaderboardProjection leaderboard;
    private final PageCellProjection pageCells;
    private final EnergyProjection energy;
    private final RankProjection rank;
    private final FleetProjection fleet;
    private final HardwareUseProjection hardwareUse;

    public Projections(
            CatalogProjection catalog,
            RunProjection runs,
            ThrottleProjection throttle,
            ResultProjection results,
            SeriesProjection series,
            RunEventProjection runEvents,
            AgentProjection agents,
            JobProjection jobs,
            StalenessProjection staleness,
            RetractionProjection retractions,
            HiddenCatalogProjection hidden,
            PublishedClaimProjection published,
            LeaderboardProjection leaderboard,
            PageCellProjection pageCells,
            EnergyProjection energy,
            RankProjection rank,
            FleetProjection fleet,
            HardwareUseProjection hardwareUse) {
        this.models = List.of(
                catalog,
                runs,
                throttle,
                results,
                series,
                runEvents,
                agents,
                jobs,
                staleness,
                retractions,
                hidden,
                published,
                energy,
                fleet,
                hardwareUse);
        this.leaderboard = leaderboard;
        this.pageCells = pageCells;
        this.energy = energy;
        this.rank = rank;
        this.fleet = fleet;
        this.hardwareUse = hardwareUse;
    }

    /**
     * The read-model tables: what a rebuild builds in shadow tables and swaps in (see {@link Rebuilder}). Every table a
     * projection writes is listed here, and only those; those derived from the others first.
     */
    public static final List<String> TABLES = Stream.of(
                    PageCellProjection.TABLES,
                    EnergyProjection.TABLES,
                    HardwareUseProjection.TABLES,
                    SeriesProjection.TABLES,
                    ThrottleProjection.TABLES,
                    HiddenCatalogProjection.TABLES,
                    RankProjection.TABLES,
                    FleetProjection.TABLES,
                    StalenessProjection.TABLES,
                    List.of(
                            "proj_metric_key",
                            "proj_leaderboard_row",
                            "proj_result",
                            "proj_run_event",
                            "proj_run_event_count",
                            "proj_published_claim",
                            "proj_job_assignment",
                            "proj_run",
                            "proj_retraction",
                            "proj_comparison_key",
                            "proj_catalog_origin",
                            "proj_benchmark",
                            "proj_device",
                            "proj_host",
                            "proj_agent",
                            "proj_change_point",
                            "proj_history"))
            .flatMap(List::stream)
            .toList();

    /** Takes the shared projection lock for the current transaction. */
    public static void lockShared(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock_shared(" + LOCK + ")");
        }
    }

    /** Applies events (already in position order) and recomputes the aggregates they touched; what they touched. */
    public Touched apply(Connection c, List<StoredEvent> events) throws SQLException {
        Touched touched = new Touched();
        applyModels(c, events, touched);
        recompute(c, touched);
        PageChanges.announce(c, touched, events);
        if (!events.isEmpty()) {
            HistoryTouches.record(c, touched, events.get(events.size() - 1).position());
        }
        return touched;
    }

    /** Recomputes the aggregates of what a batch touched, once its events are applied. */
    private void recompute(Connection c, Touched touched) throws SQLException {
        leaderboard.recompute(c, touched);
        pageCells.recompute(c, touched);
        energy.recompute(c, touched);
        hardwareUse.recompute(c, touched);
        rank.recompute(c, touched);
        fleet.recompute(c, touched);
    }

    /**
     * Applies events (already in position order) to every read model but not the aggregates: a rebuild recomputes
     * those once, with {@link #recomputeAll}, after its last chunk.
     */
    public void applyModels(Connection c, List<StoredEvent> events, Touched touched) throws SQLException {
        for (StoredEvent e : events) {
            if (!bound(e)) {
                continue;
            }
            if (ordersRuns(e)) {
                drain(c, touched);
            }
            for (Projection p : models) {
                p.apply(e, c, touched);
            }
        }
        drain(c, touched);
        for (Projection p : models) {
            p.flush(c, touched);
        }
    }

    /**
     * Ingest refuses an event whose payload names identities its envelope does not allow, but a store may hold such events
     * from before that rule: they change no row, so live ingest and a rebuild give the same rows.
     */
    private static boolean bound(StoredEvent e) {
        Optional<Violation> v = IdentityBinding.violation(e.envelope());
        v.ifPresent(x -> LOG.warnf(
                "event %s at position %d changes no row: %s", e.envelope().eventId(), e.position(), x));
        return v.isEmpty();
    }

    /** Tells query-service that every page changed (the read models were swapped). */
    public static void announceAllPages(Connection c) throws SQLException {
        PageChanges.announceAll(c);
    }

    /** Recomputes every aggregate from the read models. */
    public void recomputeAll(Connection c) throws SQLException {
        leaderboard.recomputeAll(c);
        pageCells.recomputeAll(c);
        energy.recomputeAll(c);
        hardwareUse.recomputeAll(c);
        rank.recomputeAll(c);
        fleet.recomputeAll(c);
    }

    /**
     * Events whose projection reads run rows or changes them in a way that depends on what came before (grants,
     * claims, lease expiries, retractions, a run of a job): the run and result writes deferred so far are sent first,
     * so every event sees the rows of the events before it, as when applied one at a time.
     */
    static boolean ordersRuns(StoredEvent e) {
        Object p = e.envelope().payload();
        return p instanceof JobClaimed
                || p instanceof JobAssigned
                || p instanceof JobLeaseExpired
                || p instanceof ResultRetracted
                || (p instanceof RunStarted r && r.jobId() != null);
    }

    private void drain(Connection c, Touched touched) throws SQLException {
        for (Projection p : models) {
            p.drain(c, touched);
        }
    }
}
