package dev.podium.query.data;

import com.fasterxml.jackson.databind.JsonNode;

/** One series kind of a run as stored downsampled (proj_run_series_head and its points): {@code samples} a JSON array. */
public record SeriesRow(String series, String unit, JsonNode samples) {}
