package dev.podium.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminConfigTest {

    private static AdminConfig load(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(AdminConfig.class)
                .withSources(new MapBackedConfigSource("test", properties) {})
                .build();
        return config.getConfigMapping(AdminConfig.class);
    }

    @Test
    void tokensAreReadWithTheirNames() {
        assertThat(load(Map.of("podium.admin.tokens.ops", "a", "podium.admin.tokens.ci", "b"))
                        .tokens())
                .containsExactlyInAnyOrderEntriesOf(Map.of("ops", "a", "ci", "b"));
    }

    @Test
    void withoutTokensTheServiceStartsWithTheAdminApiClosed() {
        assertThat(load(Map.of()).tokens()).isEmpty();
    }
}
