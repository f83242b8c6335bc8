package dev.podium.query.data;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A campaign of the command side's {@code campaign} table; {@code matrixKeys} are the names of its spec's matrix, and
 * {@code adaptive} its adaptive state (null when it is not adaptive).
 */
public record CampaignRow(
        UUID campaignId,
        String name,
        List<String> pools,
        String schedule,
        String actor,
        Instant createdAt,
        Instant lastIssuedAt,
        List<String> matrixKeys,
        AdaptiveState adaptive) {}
