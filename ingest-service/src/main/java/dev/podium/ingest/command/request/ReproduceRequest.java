package dev.podium.ingest.command.request;

import dev.podium.events.model.Adaptive;
import dev.podium.ingest.command.problem.FieldViolation;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import java.util.Optional;

/**
 * The query of {@code POST /admin/claims/{source}/{claim}/reproduce?pools=a,b[&max=12&target_half_width_pct=2][&devices=1]}:
 * the pools to measure on, each once, in the order given; for adaptive runs, the most runs a side and the half-width
 * to stop at (both or neither; their bounds are {@link Adaptive}'s, checked with the campaign); and the accelerators a
 * run to measure at when not the claim's own number. How many pools a claim needs depends on the claim, and is checked
 * with it, as is whether its number of accelerators can be chosen.
 */
public record ReproduceRequest(
        @NotEmpty(message = "at least one pool") List<@NotNull @PoolName String> pools,

        @Pattern(regexp = "[0-9]{1,9}", message = "must be a whole number of runs")
        String max,

        @Pattern(regexp = "[0-9]{1,3}(\\.[0-9]{1,3})?", message = "must be a percentage such as 2 or 2.5")
        String targetHalfWidthPct,

        @Pattern(regexp = DEVICES, message = "must be a whole number of accelerators a run, from 1 to 999")
        String devices) {

    private static final String DEVICES = "[1-9][0-9]{0,2}";

    public static ReproduceRequest fromQuery(String pools, String max, String targetHalfWidthPct, String devices) {
        List<String> given = Pools.fromQuery(pools);
        return new ReproduceRequest(given == null ? List.of() : given, max, targetHalfWidthPct, devices);
    }

    /** The accelerators a run asked for, when given and well formed; empty: the claim's own number. */
    public Optional<Integer> devicesPerRun() {
        return devices == null || !devices.matches(DEVICES) ? Optional.empty() : Optional.of(Integer.parseInt(devices));
    }

    /** The one of max and target_half_width_pct given without the other. */
    public Optional<FieldViolation> unpaired() {
        if ((max == null) == (targetHalfWidthPct == null)) {
            return Optional.empty();
        }
        return Optional.of(new FieldViolation(
                max == null ? "max" : "target_half_width_pct",
                "adaptive runs need max and target_half_width_pct together"));
    }

    /** The adaptive block on {@code metric}, when both values are given and well formed. */
    public Optional<Adaptive> adaptive(String metric) {
        if (max == null
                || targetHalfWidthPct == null
                || !max.matches("[0-9]{1,9}")
                || !targetHalfWidthPct.matches("[0-9]{1,3}(\\.[0-9]{1,3})?")) {
            return Optional.empty();
        }
        return Optional.of(new Adaptive(Integer.parseInt(max), Double.parseDouble(targetHalfWidthPct), metric));
    }
}
