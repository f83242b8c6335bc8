package dev.podium.ingest.command.request;

import dev.podium.events.validate.Limits;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /admin/keys/{keyId}/revoke}, optional; the reason goes into AgentKeyRevoked. */
public record RevokeKeyRequest(
        @Size(max = Limits.MAX_STRING_CHARS) @NoNul String reason) implements AdminRequest {}
