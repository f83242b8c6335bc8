package dev.podium.ingest.command.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An error body as RFC 9457 has it ({@code application/problem+json}): {@code type} names the kind of problem,
 * {@code title} says it in words, {@code detail} this occurrence; {@code violations} lists every broken rule of an invalid
 * request. {@code requiredScope} and {@code tokenScope} are set only for a token outside its scope.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        List<FieldViolation> violations,
        @JsonProperty("required_scope") String requiredScope,
        @JsonProperty("token_scope") String tokenScope) {}
