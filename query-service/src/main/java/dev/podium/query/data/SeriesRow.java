package dev.podium.query.data;

import com.fasterxml.jackson.databind.JsonNode;

/** One MetricSampled batch of a run (proj_run_series). */
public record SeriesRow(String series, long position, String unit, JsonNode samples) {}
