package dev.podium.query.page;

import dev.podium.query.stats.ComparisonIntervals;
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

/** What the comparison template repeats: the matrix's rows with each cell's ratio interval, and the display values of both. */
@TemplateExtension
public final class ComparisonLines {

    /** One row of the matrix: a device and source with its cells in column order. */
    public record MatrixRow(ComparisonView.Row row, List<MatrixCell> cells) {}

    /** One cell with its ratio interval against the baseline (null on the baseline's row and where none was computed). */
    public record MatrixCell(ComparisonView.Cell cell, RatioCell interval) {}

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
                cells.add(new MatrixCell(
                        c, r.baseline() ? null : intervals.get(new Place(r.deviceId(), r.source(), c.keyId()))));
            }
            rows.add(new MatrixRow(r, cells));
        }
        return rows;
    }

    public static String deviceLink(ComparisonView.Row r) {
        return Links.device(r.deviceId());
    }

    public static String sourceClass(ComparisonView.Row r) {
        return Formats.sourceClass(r.source());
    }

    public static String valueText(MatrixCell c) {
        return Formats.num(c.cell().value());
    }

    /**
     * The ratio to two decimals, or with a power of ten when it is too large for its digits to fit a cell (values such as
     * 1e150 against 1e-300 give a ratio of 1e449, beyond a double: its text is exact, from decimals).
     */
    public static String ratioText(MatrixCell c) {
        Double ratio = c.cell().ratio();
        String text = c.cell().ratioText();
        return text == null || Math.abs(ratio) < Formats.SCIENTIFIC_FROM
                ? text
                : Formats.scientific(new BigDecimal(text));
    }

    /** Whether the ratio's interval cannot be computed from its values, which the page then says beside it. */
    public static boolean uncomputable(MatrixCell c) {
        return c.interval() != null
                && ComparisonIntervals.CANNOT.equals(c.interval().note());
    }

    /** Why a ratio has no interval, for its title; null when it has one or none was asked for. */
    public static String note(MatrixCell c) {
        return c.interval() != null && c.interval().interval() == null
                ? c.interval().note()
                : null;
    }

    /** The ratio's interval, null without one. */
    public static RatioInterval ci(MatrixCell c) {
        return c.interval() == null ? null : c.interval().interval();
    }

    /** The class of an interval: better, worse, or no significant difference from the baseline. */
    public static String ciClass(RatioInterval i) {
        return i.significant() ? i.low() > 1 ? "ci ci-better" : "ci ci-worse" : "ci ci-same";
    }

    public static String lowText(RatioInterval i) {
        return Ratios.twoDecimals(i.low(), 1);
    }

    public static String highText(RatioInterval i) {
        return Ratios.twoDecimals(i.high(), 1);
    }

    public static String deviceLink(ComparisonView.Curve c) {
        return Links.device(c.deviceId());
    }

    public static String sourceClass(ComparisonView.Curve c) {
        return Formats.sourceClass(c.source());
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
}
