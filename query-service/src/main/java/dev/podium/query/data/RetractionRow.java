package dev.podium.query.data;

import java.time.Instant;

/** Why a run was withdrawn from leaderboards and comparisons, by which admin token, and when. */
public record RetractionRow(String reason, String actor, Instant retractedAt) {}
