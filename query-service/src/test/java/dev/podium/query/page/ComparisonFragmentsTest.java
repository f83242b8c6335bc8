package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ComparisonFragmentsTest {

    private static final String FORM = "<select name=\"benchmark\"><option value=\"a100\">a100</option></select>"
            + ComparisonFragments.BASELINE_SELECT + "<option value=\"a100\">A100</option><option value=\"x&lt;y\">X</option></select>"
            + "<input type=\"checkbox\" name=\"devices\" value=\"a100\">";

    @Test
    void marksTheBaselineOptionOfTheBaselineSelectOnly() {
        String html = ComparisonFragments.withSelected(FORM, "a100");

        assertThat(html).contains(ComparisonFragments.BASELINE_SELECT + "<option value=\"a100\" selected>A100</option>");
        assertThat(html).startsWith("<select name=\"benchmark\"><option value=\"a100\">a100</option>");
        assertThat(html.split(" selected", -1)).hasSize(2);
    }

    @Test
    void findsADeviceIdThatNeedsEscapingAndLeavesTheFormAloneForAnUnknownOne() {
        assertThat(ComparisonFragments.withSelected(FORM, "x<y")).contains("<option value=\"x&lt;y\" selected>X</option>");
        assertThat(ComparisonFragments.withSelected(FORM, "h100")).isEqualTo(FORM);
    }
}
