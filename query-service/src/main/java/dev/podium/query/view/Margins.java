package dev.podium.query.view;

import dev.podium.query.config.QueryConfig;
import dev.podium.query.stats.Margin;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The margin a page judges its ratios at: the request's {@code margin=} (a number of percent), else the benchmark's
 * configured one, else the default ({@code podium.query.equivalence.*}). A margin a request gives that is not a number of
 * percent within {@link Margin}'s bounds answers 400, never a default in its place. Configured margins are checked at
 * start, so that a mistyped one stops the service instead of failing every page that judges a ratio.
 */
@Startup
@ApplicationScoped
public class Margins {

    private final QueryConfig.Equivalence config;

    public Margins(QueryConfig config) {
        this.config = config.equivalence();
        new Margin(this.config.margin());
        this.config.margins().values().forEach(Margin::new);
    }

    public Margin of(String requested, String benchmark) {
        if (requested != null) {
            return Margin.parse(requested)
                    .orElseThrow(() -> BadRequest.because(
                            Margin.rule(requested.length() > 20 ? requested.substring(0, 20) + "..." : requested)));
        }
        Double configured = benchmark == null ? null : config.margins().get(benchmark);
        return new Margin(configured != null ? configured : config.margin());
    }
}
