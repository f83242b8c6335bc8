package dev.podium.query.page;

import dev.podium.query.stats.ComparisonIntervals;
import dev.podium.query.stats.ConfigDifference;
import dev.podium.query.stats.CostCell;
import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.RatioCell;
import dev.podium.query.stats.RatioInterval;
import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.Links;
import dev.podium.query.view.Ratios;
import io.quarkus.qute.TemplateExtension;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the comparison template repeats, as records of display values, one per row or cell: the matrix's rows with each
 * cell's ratio interval, the cost rows and the curves. A comparison has hundreds of cells, and Qute spends microseconds
 * on every section and nested lookup, so each value is computed here once and the template branches only where its
 * markup differs.
 */
@TemplateExtension
public final class ComparisonLines {

    /** One row of the matrix: a device and source with its cells in column order. */
    public record MatrixRow(
            String deviceLink,
            String deviceLabel,
            boolean knownDevice,
            boolean baseline,
            String baselineLink,
            String sourceClass,
            String source,
            List<MatrixCell> cells) {}

    /**
     * One cell: {@code value} null when absent ({@code notAvailable} when the publication said n/a), {@code ratio} null
     * without one; {@code ciClass}, {@code verdict}, {@code low} and {@code high} null without an interval; {@code note}
     * why a ratio has no interval, said beside it when the interval cannot be computed from the values; {@code
     * equivalence} the verdict at the page's margin, {@code equivalenceClass} its class and {@code runs} the runs a side
     * that would settle it, null without an interval; {@code powerCap} and {@code baselinePowerCap} the runs of each side
     * that ran under a lowered power limit, null when none did.
     */
    public record MatrixCell(
            String value,
            boolean notAvailable,
            String ratio,
            String note,
            String ciClass,
            String verdict,
            String low,
            String high,
            boolean uncomputable,
            String equivalence,
            String equivalenceClass,
            String runs,
            List<ConfigDifference> differences,
            String tally,
            String baselineTally,
            String powerCap,
            String baselinePowerCap,
            int bar) {}

    /** One row of the cost table. */
    public record CostLine(
            String device,
            String sourceClass,
            String source,
            String column,
            String perDollar,
            String joules,
            String scaling,
            Integer scalingBase,
            String costs) {}

    /** One curve: a device and source under one setting, its normalised values in the order of the curve's columns. */
    public record CurveLine(
            String deviceLink,
            String deviceLabel,
            boolean knownDevice,
            String sourceClass,
            String source,
            String setting,
            List<CurvePoint> cells) {}

    /**
     * One normalised value, null where the curve has none: the ratio to two decimals and, against the curve's first
     * value, its verdict, the verdict's class and the runs a side that would settle it (null without runs' intervals).
     */
    public record CurvePoint(String ratio, String equivalence, String equivalenceClass, String runs) {}

    /** A cell's place: device, source and key. */
    private record Place(String deviceId, String source, String keyId) {}

    private ComparisonLines() {}

    public static List<MatrixRow> matrixRows(ComparisonView view) {
        Map<Place, RatioCell> intervals = new HashMap<>(view.intervals().size() * 2);
        for (RatioCell c : view.intervals()) {
            intervals.put(new Place(c.deviceId(), c.source(), c.keyId()), c);
        }
        List<MatrixRow> rows = new ArrayList<>(view.rows().size());
        for (ComparisonView.Row r : view.rows()) {
            List<MatrixCell> cells = new ArrayList<>(r.cells().size());
            for (ComparisonView.Cell c : r.cells()) {
                cells.add(cell(c, r.baseline() ? null : intervals.get(new Place(r.deviceId(), r.source(), c.keyId()))));
            }
            rows.add(new MatrixRow(
                    Links.device(r.deviceId()),
                    r.deviceLabel(),
                    r.knownDevice(),
                    r.baseline(),
                    r.baselineLink(),
                    Formats.sourceClass(r.source()),
                    r.source(),
                    cells));
        }
        return rows;
    }

    /** A cell with its ratio interval against the baseline (null on the baseline's row and where none was computed). */
    private static MatrixCell cell(ComparisonView.Cell c, RatioCell interval) {
        RatioInterval i = interval == null ? null : interval.interval();
        Equivalence e = interval == null ? null : interval.equivalence();
        return new MatrixCell(
                c.value() == null ? null : Formats.num(c.value()),
                c.notAvailable(),
                ratioText(c),
                interval != null && i == null ? interval.note() : null,
                i == null ? null : ciClass(i),
                i == null ? null : i.verdict(),
                i == null ? null : Ratios.twoDecimals(i.low(), 1),
                i == null ? null : Ratios.twoDecimals(i.high(), 1),
                interval != null && ComparisonIntervals.CANNOT.equals(interval.note()),
                e == null ? null : e.text(),
                e == null ? null : Formats.equivalenceClass(e.call()),
                e == null ? null : Formats.runsText(e.runs()),
                interval == null ? List.of() : interval.differences(),
                tallied(interval) ? interval.runs().text() : null,
                tallied(interval) ? interval.baselineRuns().text() : null,
                interval == null ? null : Cells.powerCapText(interval.powerCap()),
                interval == null ? null : Cells.powerCapText(interval.baselinePowerCap()),
                c.bar());
    }

    /**
     * The ratio to two decimals, or with a power of ten when it is too large for its digits to fit a cell (values such as
     * 1e150 against 1e-300 give a ratio of 1e449, beyond a double: its text is exact, from decimals).
     */
    private static String ratioText(ComparisonView.Cell c) {
        Double ratio = c.ratio();
        String text = c.ratioText();
        return text == null || Math.abs(ratio) < Formats.SCIENTIFIC_FROM
                ? text
                : Formats.scientific(new BigDecimal(text));
    }

    /** The class of an interval: better, worse, or no significant difference from the baseline. */
    private static String ciClass(RatioInterval i) {
        return i.significant() ? i.low() > 1 ? "ci ci-better" : "ci ci-worse" : "ci ci-same";
    }

    public static List<CostLine> costLines(ComparisonView view) {
        Map<String, String> columns = new HashMap<>();
        for (ComparisonView.Column c : view.columns()) {
            columns.putIfAbsent(c.keyId(), c.label());
        }
        List<CostLine> lines = new ArrayList<>(view.costs().size());
        for (CostCell c : view.costs()) {
            lines.add(new CostLine(
                    Formats.device(c.deviceId()),
                    Formats.sourceClass(c.source()),
                    c.source(),
                    columns.getOrDefault(c.keyId(), c.keyId()),
                    Formats.num(c.perDollar()),
                    c.joulesInterval() == null ? Formats.num(null) : EnergyTexts.joules(c.joulesInterval()),
                    c.scalingEfficiency() == null || c.scalingEfficiency() == 0
                            ? null
                            : Formats.pct(c.scalingEfficiency()),
                    c.scalingBase(),
                    EnergyTexts.costs(c.costsPerMillion())));
        }
        return lines;
    }

    public static List<CurveLine> curveLines(ComparisonView view) {
        List<CurveLine> lines = new ArrayList<>(view.curves().size());
        for (ComparisonView.Curve c : view.curves()) {
            lines.add(new CurveLine(
                    Links.device(c.deviceId()),
                    c.deviceLabel(),
                    Formats.knownDevice(c.deviceId()),
                    Formats.sourceClass(c.source()),
                    c.source(),
                    c.setting(),
                    c.cells().stream().map(ComparisonLines::point).toList()));
        }
        return lines;
    }

    private static CurvePoint point(ComparisonView.CurveCell c) {
        if (c == null) {
            return null;
        }
        Equivalence e = c.equivalence();
        return new CurvePoint(
                c.ratio(),
                e == null ? null : e.text(),
                e == null ? null : Formats.equivalenceClass(e.call()),
                e == null ? null : Formats.runsText(e.runs()));
    }

    /** Whether the page's source filter is {@code source}. */
    public static boolean sourceIs(ComparisonView view, String source) {
        return source.equals(view.query().source());
    }

    /** Whether the page is under a group of keys it was asked for. */
    public static boolean hasGroup(ComparisonView view) {
        return view.query().group() != null && !view.query().group().isEmpty();
    }

    /** Whether {@code device} is the baseline. */
    public static boolean isBaseline(ComparisonView view, String device) {
        return device.equals(view.baseline());
    }

    /** Whether either side of the cell has runs on record: a cell of figures alone says nothing of runs. */
    private static boolean tallied(RatioCell interval) {
        return interval != null
                && interval.runs() != null
                && interval.baselineRuns() != null
                && interval.runs().attempted() + interval.baselineRuns().attempted() > 0;
    }
}
