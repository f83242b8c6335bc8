package dev.podium.query.view;

import dev.podium.events.fleet.MinimumVersions;
import dev.podium.query.data.AdaptiveState;
import dev.podium.query.data.AgentRow;
import dev.podium.query.data.FleetCellRow;
import dev.podium.query.data.FleetUnitRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The fleet page: the latest campaigns with their jobs per pool, and every agent with its status. {@code active} is true
 * while a job shown is requested or assigned; the page then reloads itself every {@code refreshSeconds}.
 */
public record FleetView(
        List<Campaign> campaigns,
        List<AgentRow> agents,
        int online,
        long onlineWindowSeconds,
        boolean active,
        int refreshSeconds,
        Instant generatedAt,
        Fitness fitness) {

    /** The job states of the command side, in the order a job passes through them. */
    public static final List<String> STATES = List.of("requested", "assigned", "done", "failed", "cancelled");

    /**
     * A campaign's latest issue: its jobs per pool, and how many are in each state; {@code adaptive} where an adaptive
     * campaign stands (null when it is not one).
     */
    public record Campaign(
            UUID campaignId,
            String name,
            String schedule,
            String actor,
            Instant createdAt,
            Instant lastIssuedAt,
            int issue,
            Map<String, Integer> states,
            int jobCount,
            boolean active,
            AdaptiveState adaptive,
            List<Pool> pools) {}

    /** The jobs of one pool in a campaign, and the agents whose runs they are. */
    public record Pool(String pool, Map<String, Integer> states, List<String> agents, List<Job> jobs) {}

    /**
     * One job (one pool × one matrix point): its state, the lease epoch, the run holding (or last holding) the lease and
     * its agent, and the earlier grants that a lease expiry superseded.
     */
    public record Job(
            UUID jobId,
            String point,
            Map<String, String> parameters,
            String state,
            int leaseEpoch,
            UUID runId,
            String runLink,
            String runStatus,
            String agentId,
            Instant leaseExpiresAt,
            Instant startedAt,
            Instant finishedAt,
            List<Attempt> earlier) {}

    /**
     * Fleet fitness: the accelerators and hosts whose figures lie outside their pool's distribution for the same key
     * and metric ({@code |z| > threshold}, with the evidence), each host's and accelerator's runs by outcome, and each
     * host's versions audited against the minimum versions table. {@code more} is true when a list was cut at its bound.
     */
    public record Fitness(
            List<FleetCellRow> outliers,
            List<FleetUnitRow> units,
            List<HostAudit> audits,
            double threshold,
            boolean more) {}

    /** A host's latest reported versions against its device's minimums; it passes when no component fails. */
    public record HostAudit(
            String pool,
            String hostname,
            String hostKey,
            String deviceId,
            List<MinimumVersions.Finding> findings,
            boolean passes) {}

    /** A grant of an earlier epoch: its run never counts once the job went to a later epoch. */
    public record Attempt(
            int leaseEpoch, UUID runId, String runLink, String agentId, String runStatus, Instant grantedAt) {}
}
