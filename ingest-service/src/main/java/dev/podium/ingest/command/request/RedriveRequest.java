package dev.podium.ingest.command.request;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Body of {@code POST /admin/rejected/redrive}: the ids of rejected records, at most {@value #MAX_IDS}, each redriven in
 * a transaction of its own and listed in the answer.
 */
public record RedriveRequest(
        @NotEmpty(message = "the ids of rejected records, one or more")
        @Size(max = MAX_IDS, message = "at most {max} per request")
        List<@NotNull @Positive Long> ids)
        implements AdminRequest {

    public static final int MAX_IDS = 100;
}
