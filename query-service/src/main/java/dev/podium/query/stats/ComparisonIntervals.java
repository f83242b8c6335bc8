package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;
import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ratio intervals for a comparison matrix, from the counted (completed, valid, not retracted) runs of each device under
 * each column's key: their per-repetition values, or their means from three runs on ({@link Samples}); see
 * {@link RatioEstimator#estimateClosedForm} for the method.
 */
@ApplicationScoped
public class ComparisonIntervals {

    static final String PUBLISHED = "published figure without per-repetition values: no interval";
    static final String TOO_FEW = "fewer than two repetitions on one side: no interval";
    public static final String CANNOT =
            "the interval cannot be computed: the values are too far apart for double precision";
    private static final LogSample NONE = LogSample.of(new double[0]);

    private final CellQueries cells;

    public ComparisonIntervals(CellQueries cells) {
        this.cells = cells;
    }

    /** The interval and the verdict at {@code margin} of every ratio of the view's matrix. */
    public List<RatioCell> of(ComparisonView view, Margin margin) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        Map<String, Map<String, LogSample>> samples = new HashMap<>();
        cells.intervals(
                        view.columns().stream()
                                .map(ComparisonView.Column::keyId)
                                .toList(),
                        view.query().metric())
                .forEach(c ->
                        samples.computeIfAbsent(c.keyId(), k -> new HashMap<>()).put(c.deviceId(), c.sample()));
        // Each column's samples by device, and the baseline's side of each column, looked up once, not per cell.
        List<ComparisonView.Column> columns = view.columns();
        List<Map<String, LogSample>> byColumn = new ArrayList<>(columns.size());
        LogSample[] baseline = new LogSample[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            Map<String, LogSample> column = samples.getOrDefault(columns.get(i).keyId(), Map.of());
            byColumn.add(column);
            baseline[i] = column.getOrDefault(view.baseline(), NONE);
        }
        List<RatioCell> out = new ArrayList<>();
        for (ComparisonView.Row row : view.rows()) {
            if (row.baseline()) {
                continue;
            }
            List<ComparisonView.Cell> cells = row.cells();
            for (int i = 0; i < cells.size(); i++) {
                ComparisonView.Cell cell = cells.get(i);
                if (cell.ratio() == null) {
                    continue;
                }
                if (!"measured".equals(row.source())) {
                    out.add(new RatioCell(row.deviceId(), row.source(), cell.keyId(), null, null, PUBLISHED));
                    continue;
                }
                out.add(cell(
                        row,
                        cell.keyId(),
                        RatioEstimator.difference(
                                byColumn.get(i).getOrDefault(row.deviceId(), NONE), baseline[i], view.lowerIsBetter()),
                        margin));
            }
        }
        return out;
    }

    private static RatioCell cell(
            ComparisonView.Row row, String keyId, Optional<LogDifference> difference, Margin margin) {
        if (difference.isEmpty()) {
            return new RatioCell(row.deviceId(), row.source(), keyId, null, null, TOO_FEW);
        }
        RatioInterval r = RatioEstimator.interval(difference.get());
        return RatioEstimator.computable(r)
                ? new RatioCell(
                        row.deviceId(), row.source(), keyId, r, Equivalence.of(difference.get(), margin), r.verdict())
                : new RatioCell(row.deviceId(), row.source(), keyId, null, null, CANNOT);
    }
}
