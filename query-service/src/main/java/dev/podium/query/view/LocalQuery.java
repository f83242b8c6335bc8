package dev.podium.query.view;

/**
 * The whole state of the "your machine" page, in its query string: the benchmark the local agent measured, the published
 * benchmark set beside it, the parameter of the curves and the metric.
 */
public record LocalQuery(String benchmark, String published, String param, String metric) {

    public static final String DEFAULT_BENCHMARK = "podium-reference";
    public static final String DEFAULT_PUBLISHED = "bridgetower-finetune";
    public static final String DEFAULT_PARAM = "dataloader_num_workers";
    public static final String DEFAULT_METRIC = "train_samples_per_second";

    /** This query with every absent or blank value replaced by its default. */
    public LocalQuery withDefaults() {
        return new LocalQuery(
                or(benchmark, DEFAULT_BENCHMARK),
                or(published, DEFAULT_PUBLISHED),
                or(param, DEFAULT_PARAM),
                or(metric, DEFAULT_METRIC));
    }

    public Links link() {
        return Links.to("/local")
                .param("benchmark", benchmark)
                .param("published", published)
                .param("param", param)
                .param("metric", metric);
    }

    private static String or(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
