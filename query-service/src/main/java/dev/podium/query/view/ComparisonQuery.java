package dev.podium.query.view;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The whole state of a comparison page, all in its query string: benchmark, metric, the parameter that varies across
 * columns, the group of keys (any key id of it), the devices, the baseline device, the source and the margin in percent
 * its ratios are judged at (null: the benchmark's or the default, {@link Margins}).
 */
public record ComparisonQuery(
        String benchmark,
        String metric,
        String param,
        String group,
        List<String> devices,
        String baseline,
        String source,
        String margin) {

    public Links link() {
        return Links.to("/compare")
                .param("benchmark", benchmark)
                .param("metric", metric)
                .param("param", param)
                .param("group", group)
                .params("devices", devices)
                .param("source", source)
                .param("baseline", baseline)
                .param("margin", margin);
    }

    /** Links to this comparison with another baseline, by device id: what precedes the baseline is encoded once. */
    public UnaryOperator<String> baselineLinks() {
        String rest = withBaseline(null).link().build();
        String separator = rest.indexOf('?') < 0 ? "?" : "&";
        return device -> rest
                + separator
                + Links.to("").param("baseline", device).build().substring(1);
    }

    public ComparisonQuery withBaseline(String newBaseline) {
        return new ComparisonQuery(benchmark, metric, param, group, devices, newBaseline, source, margin);
    }
}
