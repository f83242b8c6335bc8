package dev.podium.events.job;

import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.Nullable;
import java.util.List;
import java.util.UUID;

/**
 * A campaign: one job spec to run once per pool and point of its matrix. {@code schedule} is null for a one-off
 * campaign, else how often it repeats: {@code hourly}, {@code nightly}, {@code weekly} or an ISO-8601 duration such as
 * {@code PT24H}. {@code actor} is the name of the admin token that submitted it.
 */
public record CampaignCreated(
        UUID campaignId,
        String name,
        JobSpec spec,
        List<String> pools,
        @Nullable String schedule,
        String actor) implements CampaignEvent {}
