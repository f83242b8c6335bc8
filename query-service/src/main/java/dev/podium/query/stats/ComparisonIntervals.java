package dev.podium.query.stats;

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
    private static final LogSample NONE = LogSample.of(new double[0]);

    private final StatsCache stats;

    public ComparisonIntervals(StatsCache stats) {
        this.stats = stats;
    }

    public List<RatioCell> of(ComparisonView view) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        Map<DeviceKey, LogSample> samples = stats.intervalSamples(view.query().benchmark(), view.query().metric());
        Map<String, LogSample> baseline = new HashMap<>(); // the baseline's side of each column, looked up once, not per row
        view.columns().forEach(c -> baseline.put(c.keyId(), samples.getOrDefault(new DeviceKey(view.baseline(), c.keyId()), NONE)));
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
                Optional<RatioInterval> interval = RatioEstimator.estimateClosedForm(
                        samples.getOrDefault(new DeviceKey(row.deviceId(), cell.keyId()), NONE),
                        baseline.getOrDefault(cell.keyId(), NONE), view.lowerIsBetter());
                out.add(interval.map(r -> new RatioCell(row.deviceId(), row.source(), cell.keyId(), r, r.verdict()))
                        .orElse(new RatioCell(row.deviceId(), row.source(), cell.keyId(), null, TOO_FEW)));
            }
        }
        return out;
    }
}
