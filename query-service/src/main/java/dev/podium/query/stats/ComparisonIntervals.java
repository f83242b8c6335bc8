package dev.podium.query.stats;

import dev.podium.query.view.ComparisonView;
import dev.podium.query.data.Catalog;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ratio intervals for a comparison matrix, from the counted (completed, valid, not retracted) runs of each device under
 * each column's key: their per-repetition values, or their means from three runs on ({@link Samples}); see
 * {@link RatioEstimator#estimateClosedForm} for the method.
 */
@ApplicationScoped
public class ComparisonIntervals {

    static final String PUBLISHED = "published figure without per-repetition values: no interval";
    static final String TOO_FEW = "fewer than two repetitions on one side: no interval";

    private final StatsCache stats;
    private final Catalog catalog;

    public ComparisonIntervals(StatsCache stats, Catalog catalog) {
        this.stats = stats;
        this.catalog = catalog;
    }

    public List<RatioCell> of(ComparisonView view) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        List<String> keyIds = view.columns().stream().map(ComparisonView.Column::keyId).toList();
        Map<String, List<StatsQueries.RunValues>> runs = new HashMap<>();
        // A bootstrap takes milliseconds: each pair's interval is kept as long as the runs it came from.
        Map<String, Optional<RatioInterval>> known = catalog.cached("ratio intervals\n" + view.query().benchmark() + "\n"
                + view.query().metric() + "\n" + view.lowerIsBetter(), ConcurrentHashMap::new);
        if (known.size() > 100_000) {
            known.clear();
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
                String pair = row.deviceId() + "\n" + view.baseline() + "\n" + cell.keyId();
                Optional<RatioInterval> interval = known.get(pair);
                if (interval == null) {
                    if (runs.isEmpty()) {
                        stats.runValues(keyIds, view.query().metric(), false)
                                .forEach(v -> runs.computeIfAbsent(v.deviceId() + "\n" + v.keyId(), k -> new ArrayList<>()).add(v));
                    }
                    interval = RatioEstimator.estimateClosedForm(values(runs.get(row.deviceId() + "\n" + cell.keyId())),
                            values(runs.get(view.baseline() + "\n" + cell.keyId())), view.lowerIsBetter());
                    known.put(pair, interval);
                }
                out.add(interval.map(r -> new RatioCell(row.deviceId(), row.source(), cell.keyId(), r, r.verdict()))
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
