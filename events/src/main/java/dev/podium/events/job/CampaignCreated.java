package dev.podium.events.job;

import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.Nullable;
import java.util.List;
import java.util.UUID;

/**
 * A campaign: one job spec to run once per pool and point of its matrix. {@code schedule} is null for a one-off
 * campaign, else how often it repeats: {@code hourly}, {@code nightly}, {@code weekly} or an ISO-8601 duration such as
 * {@code PT24H}. {@code actor} is the name of the admin token that submitted it. {@code excludeFlagged}: its jobs are
 * not granted to agents whose host or accelerator the fleet view flags (null from writers before it: false).
 */
public record CampaignCreated(
        UUID campaignId,
        String name,
        JobSpec spec,
        List<String> pools,
        @Nullable String schedule,
        String actor,
        @Nullable Boolean excludeFlagged)
        implements CampaignEvent {

    /** A campaign that takes every agent of its pools. */
    public CampaignCreated(
            UUID campaignId, String name, JobSpec spec, List<String> pools, String schedule, String actor) {
        this(campaignId, name, spec, pools, schedule, actor, null);
    }
}
