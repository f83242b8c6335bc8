package dev.podium.query.view;

import dev.podium.query.claim.ClaimCheck;
import dev.podium.query.stats.CostCell;
import dev.podium.query.stats.Margin;
import dev.podium.query.stats.RatioCell;
import java.util.List;

/**
 * A devices x parameter matrix under one group of comparison keys that differ only in {@code param} (and in parameters
 * that some columns add, such as a different dataloader), each value with its ratio to the baseline device, plus every
 * published ratio claim about the benchmark checked by the rule; {@code margin} is the one its ratios' verdicts were judged
 * at (null before they were). What /api/v1/comparison returns.
 */
public record ComparisonView(
        ComparisonQuery query,
        List<Option> benchmarks,
        List<Option> metrics,
        List<Option> params,
        List<Option> devices,
        List<KeyOption> groups,
        String unit,
        String direction,
        String baseline,
        String baselineLabel,
        List<Column> columns,
        List<Row> rows,
        List<String> curveValues,
        List<Curve> curves,
        List<ClaimCheck> claims,
        List<RatioCell> intervals,
        List<CostCell> costs,
        Margin margin) {

    public ComparisonView(
            ComparisonQuery query,
            List<Option> benchmarks,
            List<Option> metrics,
            List<Option> params,
            List<Option> devices,
            List<KeyOption> groups,
            String unit,
            String direction,
            String baseline,
            String baselineLabel,
            List<Column> columns,
            List<Row> rows,
            List<String> curveValues,
            List<Curve> curves,
            List<ClaimCheck> claims) {
        this(
                query,
                benchmarks,
                metrics,
                params,
                devices,
                groups,
                unit,
                direction,
                baseline,
                baselineLabel,
                columns,
                rows,
                curveValues,
                curves,
                claims,
                List.of(),
                List.of(),
                null);
    }

    /**
     * This view with the 95% intervals of its ratios (see {@link dev.podium.query.stats.RatioEstimator}) and their
     * verdicts at {@code judgedAt}.
     */
    public ComparisonView withIntervals(List<RatioCell> cells, Margin judgedAt) {
        return new ComparisonView(
                query,
                benchmarks,
                metrics,
                params,
                devices,
                groups,
                unit,
                direction,
                baseline,
                baselineLabel,
                columns,
                rows,
                curveValues,
                curves,
                claims,
                List.copyOf(cells),
                costs,
                judgedAt);
    }

    /** This view with cost, energy and scaling per cell. */
    public ComparisonView withCosts(List<CostCell> cells) {
        return new ComparisonView(
                query,
                benchmarks,
                metrics,
                params,
                devices,
                groups,
                unit,
                direction,
                baseline,
                baselineLabel,
                columns,
                rows,
                curveValues,
                curves,
                claims,
                intervals,
                List.copyOf(cells),
                margin);
    }

    /** What the metric counts per second ("samples"), for the cost and energy headings. */
    public String rateOf() {
        return dev.podium.query.stats.Efficiency.rateOf(unit);
    }

    /**
     * A device's curve over the parameter under one setting of the other dimensions, each value divided by the device's
     * own value at the first parameter value of that setting. Systems of different size are never ranked against each
     * other; their curves (how much more workers help) can be set side by side honestly.
     */
    public record Curve(String deviceId, String deviceLabel, String source, String setting, List<CurveCell> cells) {}

    /**
     * One value of a curve: {@code ratio}, the value over the curve's first, to two decimals, and {@code equivalence},
     * that ratio's verdict at the page's margin from both values' runs (null at the first value and for published
     * figures, which carry no runs).
     */
    public record CurveCell(String ratio, dev.podium.query.stats.Equivalence equivalence) {}

    /**
     * One column: a comparison key, labelled by its value of the parameter and what it adds to the group, with the key's
     * exact canonical text and its readable label ({@link dev.podium.events.model.ComparisonKey#label}).
     */
    public record Column(String keyId, String value, String label, String canonical, String keyLabel) {}

    /**
     * One device and source across the columns, one cell per column in their order; {@code baselineLink} makes it the
     * baseline. {@code knownDevice} is false for an id the alias table does not know, marked "unknown device".
     */
    public record Row(
            String deviceId,
            String deviceLabel,
            boolean knownDevice,
            String source,
            boolean baseline,
            String baselineLink,
            List<Cell> cells) {}

    /**
     * One value: {@code value} (null when absent), {@code notAvailable} when the publication said n/a, {@code ratio} to the
     * baseline under the same key and source (better-oriented: above 1 is better than the baseline) and {@code ratioText} to
     * two decimals; {@code bar} is the value's length in percent of the largest value of the matrix.
     */
    public record Cell(String keyId, Double value, boolean notAvailable, Double ratio, String ratioText, int bar) {}

    public boolean lowerIsBetter() {
        return Labels.lowerIsBetter(direction);
    }

    public String csvLink() {
        return "/api/v1/comparison.csv" + query.link().build().substring("/compare".length());
    }

    public String jsonLink() {
        return "/api/v1/comparison" + query.link().build().substring("/compare".length());
    }
}
