package dev.podium.ingest.command.request;

import dev.podium.events.model.JobSpec;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code POST /admin/campaigns}, JSON or YAML: the job {@code spec} to run on each of the {@code pools}, repeated
 * on a {@code schedule} if it has one, with {@code secrets} given to its command as environment variables but carried
 * by no event in clear; with {@code exclude_flagged}, its jobs go to no agent the fleet view flags. The spec's own rules are the event contract's ({@link JobSpecContract}); the rest are here.
 */
@NoSecretInClear
public record NewCampaignRequest(
        @NotBlank @Size(max = MAX_NAME, message = "at most {max} characters") @NoNul
        String name,

        @NotEmpty(message = "at least one pool") List<@NotNull @PoolName String> pools,

        @NotNull(message = "required: a job spec") @JobSpecContract
        JobSpec spec,

        @Schedule String schedule,

        @SecretsFit(count = MAX_SECRETS, bytes = MAX_SECRET_BYTES)
        Map<@EnvName String, @NotEmpty @NoNul String> secrets,

        Boolean excludeFlagged) {

    public static final int MAX_NAME = 256;
    /** Bounds on a campaign's secrets, so that they always fit sealed in one grant. */
    public static final int MAX_SECRETS = 32;

    public static final int MAX_SECRET_BYTES = 8 * 1024;

    public NewCampaignRequest {
        secrets = secrets == null ? Map.of() : secrets;
    }

    /** This request with the query's name, pools and schedule in place of the body's, for those the query gives. */
    public NewCampaignRequest overriddenBy(String queryName, List<String> queryPools, String querySchedule) {
        return new NewCampaignRequest(
                queryName != null ? queryName : name,
                queryPools != null ? queryPools : pools,
                spec,
                querySchedule != null ? querySchedule : schedule,
                secrets,
                excludeFlagged);
    }

    /** Whether the campaign keeps its jobs from flagged hosts (false when the request does not say). */
    public boolean excludesFlagged() {
        return Boolean.TRUE.equals(excludeFlagged);
    }

    /** The schedule, or null when the campaign does not repeat. */
    public String scheduleOrNull() {
        return schedule == null || schedule.isBlank() ? null : schedule;
    }
}
