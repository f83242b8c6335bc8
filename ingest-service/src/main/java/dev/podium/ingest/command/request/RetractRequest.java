package dev.podium.ingest.command.request;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /admin/runs/{id}/retract}: why the run is retracted, shown on its page. */
public record RetractRequest(
        @NotBlank(message = "required: say why the run is retracted")
        @Size(max = MAX_REASON, message = "at most {max} characters")
        @NoNul
        String reason)
        implements AdminRequest {

    public static final int MAX_REASON = 1024;
}
