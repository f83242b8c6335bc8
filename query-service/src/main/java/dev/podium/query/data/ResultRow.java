package dev.podium.query.data;

import java.util.List;

/** One metric of a completed run with its statistics (proj_result). */
public record ResultRow(
        String metric,
        String unit,
        String direction,
        String scope,
        boolean warmupExcluded,
        Integer n,
        Double mean,
        Double median,
        Double stdev,
        Double min,
        Double max,
        Double ci95Low,
        Double ci95High,
        Double cv,
        List<Double> rawValues) {}
