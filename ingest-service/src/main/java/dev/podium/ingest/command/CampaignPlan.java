package dev.podium.ingest.command;

import dev.podium.events.model.JobSpec;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a campaign becomes jobs: one job per pool and per point of the spec's parameter matrix (the cartesian product, keys
 * in name order), each job's spec having its point merged into {@code parameters} and an empty matrix, so one job is one
 * run. Also what a schedule means.
 */
public final class CampaignPlan {

    /** More jobs than this in one issuing of a campaign is refused. */
    public static final int MAX_JOBS = 1000;

    private CampaignPlan() {}

    /**
     * How many points {@link #points} would make, without making them: the product of the axis sizes, saturated at
     * {@link Long#MAX_VALUE}, so a matrix of a billion points is refused before anything is allocated for it.
     */
    public static long count(Map<String, List<String>> matrix) {
        long n = 1;
        if (matrix == null) {
            return n;
        }
        for (List<String> values : matrix.values()) {
            int size = values == null ? 0 : values.size();
            if (size == 0) {
                return 0;
            }
            n = n > Long.MAX_VALUE / size ? Long.MAX_VALUE : n * size;
        }
        return n;
    }

    /** Every point of the matrix; one empty point for an empty or missing matrix. */
    public static List<Map<String, String>> points(Map<String, List<String>> matrix) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new TreeMap<>());
        if (matrix == null) {
            return out;
        }
        for (Map.Entry<String, List<String>> axis : new TreeMap<>(matrix).entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> point : out) {
                for (String value : axis.getValue() == null ? List.<String>of() : axis.getValue()) {
                    Map<String, String> p = new TreeMap<>(point);
                    p.put(axis.getKey(), value);
                    next.add(p);
                }
            }
            out = next;
        }
        return out;
    }

    /** The spec as a campaign takes it: {@code parameters}, {@code matrix} and {@code environment} left out are empty. */
    public static JobSpec withDefaults(JobSpec spec) {
        return new JobSpec(
                spec.benchmark(),
                spec.adapter(),
                spec.command(),
                spec.parser(),
                spec.parameters() == null ? Map.of() : spec.parameters(),
                spec.matrix() == null ? Map.of() : spec.matrix(),
                spec.repetitions(),
                spec.warmupSteps(),
                spec.timeoutSeconds(),
                spec.environment() == null ? Map.of() : spec.environment(),
                spec.nodes(),
                spec.devicesPerNode(),
                spec.pool(),
                spec.warmup(),
                spec.adaptive());
    }

    /** The spec of the job that runs {@code point} on {@code pool}. */
    public static JobSpec jobSpec(JobSpec spec, Map<String, String> point, String pool) {
        Map<String, String> parameters = new TreeMap<>(spec.parameters() == null ? Map.of() : spec.parameters());
        parameters.putAll(point);
        return new JobSpec(
                spec.benchmark(),
                spec.adapter(),
                spec.command(),
                spec.parser(),
                parameters,
                Map.of(),
                spec.repetitions(),
                spec.warmupSteps(),
                spec.timeoutSeconds(),
                spec.environment() == null ? Map.of() : spec.environment(),
                spec.nodes(),
                spec.devicesPerNode(),
                pool,
                spec.warmup());
    }

    /**
     * The period of a schedule: none for a blank one; {@code hourly}, {@code nightly} (or {@code daily}), {@code weekly};
     * otherwise an ISO-8601 duration such as {@code PT24H} or {@code P1D}.
     *
     * @throws IllegalArgumentException for anything else, or a period that is not positive
     */
    public static Optional<Duration> period(String schedule) {
        if (schedule == null || schedule.isBlank()) {
            return Optional.empty();
        }
        Duration d = switch (schedule.trim().toLowerCase(Locale.ROOT)) {
            case "hourly" -> Duration.ofHours(1);
            case "nightly", "daily" -> Duration.ofDays(1);
            case "weekly" -> Duration.ofDays(7);
            default -> {
                try {
                    yield Duration.parse(schedule.trim());
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("schedule must be hourly, nightly, daily, weekly or an ISO-8601 "
                            + "duration such as PT24H, not '" + schedule + "'");
                }
            }
        };
        if (d.isNegative() || d.toSeconds() < 1) {
            throw new IllegalArgumentException("schedule period must be at least one second, not " + d);
        }
        return Optional.of(d);
    }
}
