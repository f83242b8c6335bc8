package dev.podium.query.data;

import java.util.List;

/** One series kind of a run as stored downsampled (proj_run_series_head and its points), its points in time order. */
public record SeriesRow(String series, String unit, List<Point> points) {

    /** One stored sample: {@code repetition} and {@code device} are null where the agent sent none. */
    public record Point(double t, double value, Integer repetition, Integer device) {}
}
