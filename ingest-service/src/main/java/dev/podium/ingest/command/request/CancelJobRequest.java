package dev.podium.ingest.command.request;

import dev.podium.events.validate.Limits;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /admin/jobs/{id}/cancel}, optional; the reason goes into JobCancelled. */
public record CancelJobRequest(
        @Size(max = Limits.MAX_STRING_CHARS) @NoNul String reason) implements AdminRequest {}
