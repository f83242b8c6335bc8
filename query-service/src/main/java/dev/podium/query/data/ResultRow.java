package dev.podium.query.data;

import dev.podium.query.stats.RequestPercentile;
import java.util.List;

/**
 * One metric of a completed run with its statistics (proj_result): per repetition, and, where the workload gave
 * per-request values, their percentiles pooled over the run's repetitions; {@code toolReportedPercentile} where the
 * metric is itself a percentile the tool reported per repetition without its requests (no interval).
 */
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
        List<Double> rawValues,
        List<RequestPercentile> percentiles,
        boolean toolReportedPercentile) {}
