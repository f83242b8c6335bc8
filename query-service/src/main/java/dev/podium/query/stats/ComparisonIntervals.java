package dev.podium.query.stats;

import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ratio intervals for a comparison matrix, from the per-repetition values of every counted (completed, valid, not
 * retracted) run of each device under each column's key, pooled: see {@link RatioEstimator} for the method.
 */
@ApplicationScoped
public class ComparisonIntervals {

    static final String PUBLISHED = "published figure without per-repetition values: no interval";
    static final String TOO_FEW = "fewer than two repetitions on one side: no interval";

    private final StatsQueries queries;

    public ComparisonIntervals(StatsQueries queries) {
        this.queries = queries;
    }

    public List<RatioCell> of(ComparisonView view) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        List<String> keyIds = view.columns().stream().map(ComparisonView.Column::keyId).toList();
        Map<String, List<Double>> values = new HashMap<>();
        if (view.rows().stream().anyMatch(r -> "measured".equals(r.source()))) {
            for (StatsQueries.RunValues v : queries.runValues(keyIds, view.query().metric(), false)) {
                List<Double> pooled = values.computeIfAbsent(v.deviceId() + "\n" + v.keyId(), k -> new ArrayList<>());
                for (double x : v.rawValues()) {
                    pooled.add(x);
                }
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
                double[] a = array(values.get(row.deviceId() + "\n" + cell.keyId()));
                double[] b = array(values.get(view.baseline() + "\n" + cell.keyId()));
                out.add(RatioEstimator.estimate(a, b, view.lowerIsBetter())
                        .map(r -> new RatioCell(row.deviceId(), row.source(), cell.keyId(), r, r.verdict()))
                        .orElse(new RatioCell(row.deviceId(), row.source(), cell.keyId(), null, TOO_FEW)));
            }
        }
        return out;
    }

    private static double[] array(List<Double> v) {
        return v == null ? new double[0] : v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
