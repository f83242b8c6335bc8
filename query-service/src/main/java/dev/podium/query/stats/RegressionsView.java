package dev.podium.query.stats;

import java.util.List;

/**
 * Steps found across every history (key, metric, device), newest first, filtered by kind ("regressions",
 * "improvements" or "all") and benchmark; {@code histories} and {@code points} say how much was searched.
 */
public record RegressionsView(
        String kind,
        String benchmark,
        List<String> benchmarks,
        int limit,
        String method,
        int histories,
        long points,
        List<Change> changes) {

    public String atomLink() {
        return dev.podium.query.view.Links.to("/regressions.atom")
                .param("kind", kind)
                .param("benchmark", benchmark)
                .build();
    }

    public String jsonLink() {
        return dev.podium.query.view.Links.to("/api/v1/regressions")
                .param("kind", kind)
                .param("benchmark", benchmark)
                .build();
    }
}
