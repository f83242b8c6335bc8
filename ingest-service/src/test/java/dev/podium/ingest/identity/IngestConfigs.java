package dev.podium.ingest.identity;

import dev.podium.ingest.config.IngestConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** ingest's settings from these properties and the defaults, without starting Quarkus. */
final class IngestConfigs {

    private IngestConfigs() {}

    static IngestConfig load(Map<String, String> properties) {
        Map<String, String> all = new HashMap<>(properties);
        all.putIfAbsent("podium.ingest.master-key", "dGVzdC1vbmx5LW1hc3Rlci1rZXktbm90LWZvci1wciE=");
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(IngestConfig.class)
                // Quarkus's own form of durations ("30s"), as the service reads them
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new MapBackedConfigSource("test", all) {})
                .build();
        return config.getConfigMapping(IngestConfig.class);
    }
}
