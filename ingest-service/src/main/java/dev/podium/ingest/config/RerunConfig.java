package dev.podium.ingest.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/** Re-running stale reproductions on a schedule, under {@code podium.reproductions.rerun-stale}; off by default. */
@ConfigMapping(prefix = "podium.reproductions.rerun-stale")
public interface RerunConfig {

    /** How often stale reproductions are re-run ({@code every} of quarkus-scheduler); {@code off} for never. */
    @WithDefault("off")
    String every();

    /** The pools whose stale reproductions the schedule re-runs; unset: every pool. */
    Optional<List<String>> pools();

    /** The most reproductions one tick re-runs, so that one tick's work (and the jobs it makes) stays bounded. */
    @WithDefault("10")
    int perTick();
}
