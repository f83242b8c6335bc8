package dev.podium.ingest.config;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/**
 * Named admin tokens, under {@code podium.admin.tokens.<name>=<token>}. The name is recorded as the actor of every
 * command made with the token.
 */
@ConfigMapping(prefix = "podium.admin")
public interface AdminConfig {

    Map<String, String> tokens();
}
