package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.view.ComparisonQuery;
import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.Option;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonHtmlTest {

    private static ComparisonView view(String baseline, String group, List<Option> devices, List<ComparisonView.Curve> curves) {
        return new ComparisonView(new ComparisonQuery("a100", "throughput", "batch", group, null, baseline, "measured"),
                List.of(new Option("a100", "a100", true)), List.of(new Option("throughput", "throughput", true)),
                List.of(new Option("batch", "batch", true)), devices, List.of(), "samples/s", "HIGHER_IS_BETTER", baseline, null,
                List.of(), List.of(), List.of("8", "16"), curves, List.of());
    }

    @Test
    void marksTheBaselineInTheBaselineSelectOnlyAndChecksTheDevicesShown() {
        String html = ComparisonHtml.filters(view("a100", "k1", List.of(new Option("a100", "A100", true), new Option("h100", "H100", false)),
                List.of()));

        assertThat(html).contains("<select name=\"baseline\" id=\"baseline\"><option value=\"a100\" selected>A100</option>"
                + "<option value=\"h100\">H100</option></select>");
        assertThat(html).contains("<select name=\"benchmark\"><option value=\"a100\" selected>a100</option></select>");
        assertThat(html).contains("<input type=\"checkbox\" name=\"devices\" value=\"a100\" checked> A100</label>"
                + "<label><input type=\"checkbox\" name=\"devices\" value=\"h100\"> H100</label>");
        assertThat(html).contains("<option value=\"measured\" selected>measured</option>\n<option value=\"published\">published</option>");
        assertThat(html).contains("<input type=\"hidden\" name=\"group\" value=\"k1\">");
    }

    @Test
    void escapesAnAgentsDeviceIdAndLabelAndLeavesOutAnAbsentGroup() {
        String html = ComparisonHtml.filters(view("x\"<y", null, List.of(new Option("x\"<y", "<b>X</b>", true)), List.of()));

        assertThat(html).contains("<option value=\"x&quot;&lt;y\" selected>&lt;b&gt;X&lt;/b&gt;</option>");
        assertThat(html).contains("value=\"x&quot;&lt;y\" checked> &lt;b&gt;X&lt;/b&gt;</label>");
        assertThat(html).doesNotContain("<b>").doesNotContain("name=\"group\"");
    }

    @Test
    void writesEachCurveWithItsSignOrADashAndNothingWithoutCurves() {
        String html = ComparisonHtml.curves(view("a100", null, List.of(), List.of(
                new ComparisonView.Curve("a&b", "A<B", "published", "as above", java.util.Arrays.asList("1.00", null)))));

        assertThat(html).startsWith("<h2>Scaling with batch</h2>\n");
        assertThat(html).contains("<th class=\"num\">batch = 8</th><th class=\"num\">batch = 16</th>");
        assertThat(html).contains("<tr><td><a href=\"/devices/a%26b\">A&lt;B</a></td><td><span class=\"badge badge-published\">published"
                + "</span></td><td>as above</td>\n<td class=\"num\">1.00&times;</td><td class=\"num\">&mdash;</td></tr>");
        assertThat(ComparisonHtml.curves(view("a100", null, List.of(), List.of()))).isEmpty();
    }
}
