package dev.podium.query.view;

import dev.podium.events.fleet.MinimumVersions;
import dev.podium.events.fleet.RobustZ;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.AgentRow;
import dev.podium.query.data.CampaignRow;
import dev.podium.query.data.FleetCellRow;
import dev.podium.query.data.FleetQueries;
import dev.podium.query.data.FleetUnitRow;
import dev.podium.query.data.JobAttemptRow;
import dev.podium.query.data.JobRow;
import dev.podium.query.data.Queries;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** Builds the fleet view from the command side's campaign and job tables, the grants, the runs and the agents' heartbeats. */
@ApplicationScoped
public class FleetService {

    static final int CAMPAIGNS = 20;
    static final int MAX_JOBS = 20_000;
    static final int REFRESH_SECONDS = 5;
    static final int MAX_OUTLIERS = 200;
    static final int MAX_UNITS = 1000;

    private final FleetQueries fleet;
    private final Queries queries;
    private final QueryConfig config;

    public FleetService(FleetQueries fleet, Queries queries, QueryConfig config) {
        this.fleet = fleet;
        this.queries = queries;
        this.config = config;
    }

    public FleetView build() {
        List<CampaignRow> campaignRows = fleet.campaigns(CAMPAIGNS);
        List<JobRow> jobs =
                fleet.jobs(campaignRows.stream().map(CampaignRow::campaignId).toList(), MAX_JOBS);
        Map<UUID, List<JobAttemptRow>> attempts =
                fleet.attempts(jobs.stream().map(JobRow::jobId).toList(), MAX_JOBS * 4).stream()
                        .collect(Collectors.groupingBy(JobAttemptRow::jobId, LinkedHashMap::new, Collectors.toList()));
        Map<UUID, List<JobRow>> jobsByCampaign = jobs.stream()
                .collect(Collectors.groupingBy(JobRow::campaignId, LinkedHashMap::new, Collectors.toList()));
        List<FleetView.Campaign> campaigns = campaignRows.stream()
                .map(c -> campaign(c, jobsByCampaign.getOrDefault(c.campaignId(), List.of()), attempts))
                .toList();
        List<AgentRow> agents = queries.agents();
        return new FleetView(
                campaigns,
                agents,
                (int) agents.stream().filter(AgentRow::online).count(),
                config.onlineWindow().toSeconds(),
                campaigns.stream().anyMatch(FleetView.Campaign::active),
                REFRESH_SECONDS,
                Instant.now(),
                fitness());
    }

    /** The fitness rows, bounded; a host is audited on the versions of its first unit listed (its devices share them). */
    FleetView.Fitness fitness() {
        List<FleetCellRow> outliers = fleet.flagged(MAX_OUTLIERS + 1);
        List<FleetUnitRow> units = fleet.units(MAX_UNITS + 1);
        boolean more = outliers.size() > MAX_OUTLIERS || units.size() > MAX_UNITS;
        outliers = outliers.subList(0, Math.min(outliers.size(), MAX_OUTLIERS));
        units = units.subList(0, Math.min(units.size(), MAX_UNITS));
        Map<List<String>, FleetView.HostAudit> audits = new LinkedHashMap<>();
        MinimumVersions table = MinimumVersions.table();
        for (FleetUnitRow u : units) {
            audits.computeIfAbsent(List.of(u.pool(), u.hostKey()), k -> {
                List<MinimumVersions.Finding> findings =
                        table.audit(u.deviceId(), u.driver(), u.runtime(), u.firmware());
                return new FleetView.HostAudit(
                        u.pool(), u.hostname(), u.hostKey(), u.deviceId(), findings, MinimumVersions.passes(findings));
            });
        }
        return new FleetView.Fitness(outliers, units, List.copyOf(audits.values()), RobustZ.THRESHOLD, more);
    }

    private static FleetView.Campaign campaign(
            CampaignRow c, List<JobRow> jobs, Map<UUID, List<JobAttemptRow>> attempts) {
        Set<String> poolNames = new LinkedHashSet<>(c.pools());
        jobs.forEach(j -> poolNames.add(j.pool()));
        List<FleetView.Pool> pools = new ArrayList<>();
        for (String pool : poolNames) {
            List<JobRow> ofPool =
                    jobs.stream().filter(j -> pool.equals(j.pool())).toList();
            List<String> agents = ofPool.stream()
                    .map(JobRow::agentId)
                    .filter(Objects::nonNull)
                    .distinct()
                    .sorted()
                    .toList();
            pools.add(new FleetView.Pool(
                    pool,
                    states(ofPool),
                    agents,
                    ofPool.stream()
                            .map(j -> job(j, c.matrixKeys(), attempts.getOrDefault(j.jobId(), List.of())))
                            .toList()));
        }
        int issue = jobs.stream().mapToInt(JobRow::issue).max().orElse(1);
        return new FleetView.Campaign(
                c.campaignId(),
                c.name(),
                c.schedule(),
                c.actor(),
                c.createdAt(),
                c.lastIssuedAt(),
                issue,
                states(jobs),
                jobs.size(),
                jobs.stream().anyMatch(FleetService::active),
                c.adaptive(),
                pools);
    }

    private static FleetView.Job job(JobRow j, List<String> matrixKeys, List<JobAttemptRow> attempts) {
        List<FleetView.Attempt> earlier = attempts.stream()
                .filter(a -> !a.runId().equals(j.runId()))
                .map(a -> new FleetView.Attempt(
                        a.leaseEpoch(), a.runId(), Links.run(a.runId()), a.agentId(), a.runStatus(), a.grantedAt()))
                .toList();
        return new FleetView.Job(
                j.jobId(),
                point(j.parameters(), matrixKeys),
                j.parameters(),
                j.state(),
                j.leaseEpoch(),
                j.runId(),
                j.runId() == null ? null : Links.run(j.runId()),
                j.runStatus(),
                j.agentId(),
                j.leaseExpiresAt(),
                j.runStartedAt(),
                j.runFinishedAt(),
                earlier);
    }

    /** The job's point of the campaign's matrix, e.g. {@code size=2 · workers=4}; a dash when the spec had no matrix. */
    static String point(Map<String, String> parameters, List<String> matrixKeys) {
        String point = matrixKeys.stream()
                .filter(parameters::containsKey)
                .map(k -> k + "=" + parameters.get(k))
                .collect(Collectors.joining(" · "));
        return point.isEmpty() ? "—" : point;
    }

    /** How many jobs are in each state, every state listed (zero included), in {@link FleetView#STATES} order. */
    static Map<String, Integer> states(List<JobRow> jobs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        FleetView.STATES.forEach(s -> out.put(s, 0));
        jobs.forEach(j -> out.merge(j.state(), 1, Integer::sum));
        return out;
    }

    static boolean active(JobRow j) {
        return "requested".equals(j.state()) || "assigned".equals(j.state());
    }
}
