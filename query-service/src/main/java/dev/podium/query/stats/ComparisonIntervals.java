package dev.podium.query.stats;

import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ratio intervals for a comparison matrix, from the counted (completed, valid, not retracted) runs of each device under
 * each column's key: their per-repetition values, or their means from three runs on ({@link Samples}); see
 * {@link RatioEstimator} for the method.
 */
@ApplicationScoped
public class ComparisonIntervals {

    static final String PUBLISHED = "published figure without per-repetition values: no interval";
    static final String TOO_FEW = "fewer than two repetitions on one side: no interval";

    private final StatsCache stats;

    public ComparisonIntervals(StatsCache stats) {
        this.stats = stats;
    }

    public List<RatioCell> of(ComparisonView view) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        List<String> keyIds = view.columns().stream().map(ComparisonView.Column::keyId).toList();
        Map<String, List<StatsQueries.RunValues>> runs = new HashMap<>();
        if (view.rows().stream().anyMatch(r -> "measured".equals(r.source()))) {
            for (StatsQueries.RunValues v : stats.runValues(keyIds, view.query().metric(), false)) {
                runs.computeIfAbsent(v.deviceId() + "\n" + v.keyId(), k -> new ArrayList<>()).add(v);
            }
        }
        List<RatioCell> out = new ArrayList<>();
        for (ComparisonView.Row row : view.rows()) {
            if (row.baseline()) {
                continue;
            }
            for (ComparisonView.Cell cell : row.cells()) {
                if (cell.ratio() == null) {
                    continue;
                }
                if (!"measured".equals(row.source())) {
                    out.add(new RatioCell(row.deviceId(), row.source(), cell.keyId(), null, PUBLISHED));
                    continue;
                }
                double[] a = values(runs.get(row.deviceId() + "\n" + cell.keyId()));
                double[] b = values(runs.get(view.baseline() + "\n" + cell.keyId()));
                out.add(RatioEstimator.estimate(a, b, view.lowerIsBetter())
                        .map(r -> new RatioCell(row.deviceId(), row.source(), cell.keyId(), r, r.verdict()))
                        .orElse(new RatioCell(row.deviceId(), row.source(), cell.keyId(), null, TOO_FEW)));
            }
        }
        return out;
    }

    private static double[] values(List<StatsQueries.RunValues> runs) {
        return runs == null ? new double[0] : Samples.of(runs.stream().map(StatsQueries.RunValues::rawValues).toList(),
                runs.stream().map(StatsQueries.RunValues::mean).toList());
    }
}
