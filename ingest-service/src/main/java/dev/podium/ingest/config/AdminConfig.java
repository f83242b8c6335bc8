package dev.podium.ingest.config;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/**
 * Named admin tokens, under {@code podium.admin.tokens.<name>=<token>}. The name is recorded as the actor of every
 * command made with the token. {@code podium.admin.scopes.<name>} is the token's scope: {@code read}, {@code operate}
 * or {@code admin}; a token without one has {@code admin}, what every token could do before scopes existed.
 */
@ConfigMapping(prefix = "podium.admin")
public interface AdminConfig {

    Map<String, String> tokens();

    Map<String, String> scopes();
}
