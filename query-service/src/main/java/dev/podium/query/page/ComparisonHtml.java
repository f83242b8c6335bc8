package dev.podium.query.page;

import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.Links;
import dev.podium.query.view.Option;
import java.util.List;

/**
 * The filters form and the scaling curves of a comparison page, written in one pass like {@link MatrixHtml}, with the
 * markup and escaping their template fragments gave them. Both grow with the devices (a baseline option and a checkbox
 * each; a curve each), and a page that picks its own devices evaluated them per request: fifty devices were some 300
 * template expressions, the largest cost of such a page.
 */
final class ComparisonHtml {

    private ComparisonHtml() {
    }

    /** The form, the baseline option selected and the devices shown checked. */
    static String filters(ComparisonView view) {
        StringBuilder out = new StringBuilder(1024 + view.benchmarks().size() * 60 + view.devices().size() * 160);
        out.append("<form class=\"filters\" method=\"get\" action=\"/compare\">\n<label>Benchmark <select name=\"benchmark\">");
        options(out, view.benchmarks());
        out.append("</select></label>\n<label>Metric <select name=\"metric\">");
        options(out, view.metrics());
        out.append("</select></label>\n<label>Columns vary <select name=\"param\">");
        options(out, view.params());
        out.append("</select></label>\n<label>Baseline <select name=\"baseline\" id=\"baseline\">");
        for (Option o : view.devices()) {
            option(out, o.value(), o.label(), o.value().equals(view.baseline()));
        }
        String source = view.query().source();
        out.append("</select></label>\n<label>Source <select name=\"source\"><option value=\"\">measured and published</option>\n")
                .append("<option value=\"measured\"").append("measured".equals(source) ? " selected" : "").append(">measured</option>\n")
                .append("<option value=\"published\"").append("published".equals(source) ? " selected" : "")
                .append(">published</option></select></label>\n<fieldset class=\"devices\"><legend>Devices</legend>\n");
        for (Option o : view.devices()) {
            Html.escaped(out.append("<label><input type=\"checkbox\" name=\"devices\" value=\""), o.value()).append('"')
                    .append(o.selected() ? " checked" : "").append("> ");
            Html.escaped(out, o.label()).append("</label>");
        }
        out.append("\n</fieldset>\n");
        String group = view.query().group();
        if (group != null && !group.isEmpty()) {
            Html.escaped(out.append("<input type=\"hidden\" name=\"group\" value=\""), group).append('"').append('>');
        }
        out.append('\n'); // the line of the hidden input stays, empty without a group, as the template left it
        return out.append("<button type=\"submit\" id=\"apply-comparison\">Compare</button>\n</form>\n").toString();
    }

    /** Each curve's row with its normalised values ({@code 1.24×}, a dash where the device has none); empty without curves. */
    static String curves(ComparisonView view) {
        if (view.curves().isEmpty()) {
            return "";
        }
        String param = view.query().param();
        StringBuilder out = new StringBuilder(1024 + view.curves().size() * (300 + view.curveValues().size() * 30));
        Html.escaped(out.append("<h2>Scaling with "), param).append("</h2>\n");
        Html.escaped(out.append("<p class=\"rule\">Each device's value divided by its own value at the first "), param)
                .append(" of its setting, so that systems of different size (a local single-accelerator run, a published 8-device"
                        + " figure) can be set side by side without ranking one against the other.</p>\n")
                .append("<table class=\"data curves\" id=\"curves\">\n<thead><tr><th>Device</th><th>Source</th><th>Other settings</th>");
        for (String v : view.curveValues()) {
            Html.escaped(out.append("<th class=\"num\">"), param).append(" = ");
            Html.escaped(out, v).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (ComparisonView.Curve c : view.curves()) {
            Html.escaped(out.append("<tr><td><a href=\""), Links.device(c.deviceId())).append("\">");
            Html.escaped(out, c.deviceLabel()).append("</a></td><td><span class=\"").append(Formats.sourceClass(c.source())).append("\">");
            Html.escaped(out, c.source()).append("</span></td><td>");
            Html.escaped(out, c.setting()).append("</td>\n");
            for (String x : c.cells()) {
                out.append("<td class=\"num\">");
                if (x == null || x.isEmpty()) {
                    out.append("&mdash;");
                } else {
                    Html.escaped(out, x).append("&times;");
                }
                out.append("</td>");
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n").toString();
    }

    private static void options(StringBuilder out, List<Option> options) {
        for (Option o : options) {
            option(out, o.value(), o.label(), o.selected());
        }
    }

    private static void option(StringBuilder out, String value, String label, boolean selected) {
        Html.escaped(out.append("<option value=\""), value).append('"').append(selected ? " selected" : "").append('>');
        Html.escaped(out, label).append("</option>");
    }
}
