package dev.podium.query.page;

import dev.podium.query.stats.RatioCell;
import dev.podium.query.stats.RatioInterval;
import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.Links;
import dev.podium.query.view.Ratios;
import java.util.HashMap;
import java.util.Map;

/**
 * The comparison matrix table, written in one pass into a string builder. It is the one part of any page that grows with
 * devices times columns (fifty devices by eight columns is 400 cells, each with a value, a ratio, its interval and a bar),
 * and a template evaluates some ten expressions per cell through Qute's asynchronous resolution: this writer costs a
 * tenth of that. The rest of the page stays in {@code comparison.html}; every string from an agent is escaped with
 * {@link Html}, as the template would. Signs are written as entities ({@code &times;}): one character beyond Latin-1
 * would double the builder's bytes.
 */
final class MatrixHtml {

    private MatrixHtml() {
    }

    /** A cell's place; its strings are the frame's, whose hashes are kept, where a joined key was built per cell. */
    private record Place(String deviceId, String source, String keyId) {
    }

    static String of(ComparisonView view) {
        Map<Place, RatioCell> intervals = new HashMap<>(view.intervals().size() * 2);
        for (RatioCell c : view.intervals()) {
            intervals.put(new Place(c.deviceId(), c.source(), c.keyId()), c);
        }
        StringBuilder out = new StringBuilder(512 + view.rows().size() * (300 + view.columns().size() * 170));
        out.append("<table class=\"data matrix\" id=\"matrix\">\n<thead><tr><th>Device</th><th>Source</th>");
        for (ComparisonView.Column c : view.columns()) {
            out.append("<th class=\"num\" title=\"");
            Html.escaped(out, c.canonical()).append("\">");
            Html.escaped(out, view.query().param()).append(" = ");
            Html.escaped(out, c.label()).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (ComparisonView.Row r : view.rows()) {
            out.append(r.baseline() ? "<tr class=\"baseline\">\n<td><a href=\"" : "<tr>\n<td><a href=\"");
            Html.escaped(out, Links.device(r.deviceId())).append("\">");
            Html.escaped(out, r.deviceLabel()).append("</a>");
            if (r.baseline()) {
                out.append(" <span class=\"badge badge-baseline\">baseline</span>");
            } else {
                out.append(" <a class=\"make-baseline\" href=\"");
                Html.escaped(out, r.baselineLink()).append("\">make baseline</a>");
            }
            out.append("</td>\n<td><span class=\"").append(Formats.sourceClass(r.source())).append("\">");
            Html.escaped(out, r.source()).append("</span></td>\n");
            for (ComparisonView.Cell c : r.cells()) {
                cell(out, c, r.baseline() ? null : intervals.get(new Place(r.deviceId(), r.source(), c.keyId())));
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>").toString();
    }

    private static void cell(StringBuilder out, ComparisonView.Cell c, RatioCell interval) {
        out.append("<td class=\"num cell\">");
        if (c.value() != null) {
            out.append("<span class=\"value\">").append(Formats.num(c.value())).append("</span>");
            if (c.ratioText() != null) {
                RatioInterval i = interval == null ? null : interval.interval();
                if (interval != null && i == null) {
                    out.append(" <span class=\"ratio\" title=\"");
                    Html.escaped(out, interval.note()).append("\">");
                } else {
                    out.append(" <span class=\"ratio\">");
                }
                out.append(c.ratioText()).append("&times;</span>");
                if (i != null) {
                    out.append(" <span class=\"ci ").append(i.significant() ? i.low() > 1 ? "ci-better" : "ci-worse" : "ci-same")
                            .append("\" title=\"").append(i.verdict()).append("\">").append(Ratios.twoDecimals(i.low(), 1))
                            .append("&ndash;").append(Ratios.twoDecimals(i.high(), 1)).append("</span>");
                }
            }
            out.append("\n<meter class=\"bar\" max=\"100\" value=\"").append(c.bar()).append("\" aria-hidden=\"true\"></meter>");
        } else if (c.notAvailable()) {
            out.append("<span class=\"na\">n/a</span>");
        } else {
            out.append("&mdash;");
        }
        out.append("</td>\n");
    }
}
