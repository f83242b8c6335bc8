package dev.podium.ingest.command;

import dev.podium.ingest.config.AdminConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;

/**
 * The named admin tokens and their scopes. Tokens are compared as SHA-256 digests in constant time, and every configured token is
 * compared, so neither the length nor the position of a match leaks through timing.
 */
@ApplicationScoped
@Startup
public class AdminTokens {

    /** The fewest characters a token may have: 32 random characters are beyond guessing online. */
    public static final int MIN_LENGTH = 32;

    private final AdminConfig config;

    public AdminTokens(AdminConfig config) {
        this.config = config;
        checkLengths();
        checkScopes();
    }

    /** A token that matched: its name and its scope. */
    public record Caller(String name, AdminScope scope) {}

    /**
     * Every token has at least {@value #MIN_LENGTH} characters.
     *
     * @throws IllegalArgumentException otherwise (naming the token, never showing it), so that a guessable token stops
     *     the start instead of opening the admin plane
     */
    private void checkLengths() {
        config.tokens().forEach((name, token) -> {
            if (token.length() < MIN_LENGTH) {
                throw new IllegalArgumentException("podium.admin.tokens." + name + " has " + token.length()
                        + " characters; an admin token needs at least " + MIN_LENGTH
                        + " (for example: openssl rand -hex 32)");
            }
        });
    }

    /**
     * Every configured scope names a token and is a scope.
     *
     * @throws IllegalArgumentException otherwise, so that a misspelt scope stops the start instead of granting admin
     */
    private void checkScopes() {
        config.scopes().forEach((name, scope) -> {
            if (!config.tokens().containsKey(name)) {
                throw new IllegalArgumentException("podium.admin.scopes." + name + " names no token");
            }
            AdminScope.parse(scope);
        });
    }

    /** The token presented with its scope, or null when it is none of them. */
    public Caller callerOf(String presented) {
        String name = nameOf(presented);
        if (name == null) {
            return null;
        }
        String scope = config.scopes().get(name);
        return new Caller(name, scope == null ? AdminScope.ADMIN : AdminScope.parse(scope));
    }

    /** The name of the token presented, or null when it is none of them. */
    private String nameOf(String presented) {
        if (presented == null || presented.isEmpty()) {
            return null;
        }
        byte[] given = sha256(presented);
        String found = null;
        for (Map.Entry<String, String> token : config.tokens().entrySet()) {
            if (token.getValue() == null || token.getValue().isBlank()) {
                continue;
            }
            if (MessageDigest.isEqual(given, sha256(token.getValue())) && found == null) {
                found = token.getKey();
            }
        }
        return found;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
