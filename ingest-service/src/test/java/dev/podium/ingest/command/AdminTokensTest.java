package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.ingest.config.AdminConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A guessable admin token stops the start, by name and without showing it; one of 32 characters or more is taken. */
class AdminTokensTest {

    private static final String LONG = "x".repeat(AdminTokens.MIN_LENGTH);

    @Test
    void aTokenShorterThan32CharactersStopsTheStartByName() {
        for (String shortToken : new String[] {"a", "s3cret", "x".repeat(AdminTokens.MIN_LENGTH - 1), " "}) {
            assertThatThrownBy(
                            () -> tokens(Map.of("podium.admin.tokens.ok", LONG, "podium.admin.tokens.ci", shortToken)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("podium.admin.tokens.ci has " + shortToken.length() + " characters")
                    .hasMessageContaining("at least 32")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("=" + shortToken));
        }
    }

    @Test
    void tokensOf32CharactersOrMoreAreTaken() {
        AdminTokens tokens = tokens(Map.of("podium.admin.tokens.ops", LONG, "podium.admin.tokens.ci", LONG + "y"));
        assertThat(tokens.callerOf(LONG).name()).isEqualTo("ops");
        assertThat(tokens.callerOf(LONG + "y").name()).isEqualTo("ci");
        assertThat(tokens.callerOf("x")).isNull();
    }

    private static AdminTokens tokens(Map<String, String> properties) {
        return new AdminTokens(new SmallRyeConfigBuilder()
                .withMapping(AdminConfig.class)
                .withSources(new MapBackedConfigSource("test", properties) {})
                .build()
                .getConfigMapping(AdminConfig.class));
    }
}
