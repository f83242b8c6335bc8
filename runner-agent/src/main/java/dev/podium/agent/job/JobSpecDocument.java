package dev.podium.agent.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.agent.parse.Parsers;
import dev.podium.agent.workload.Adapter;
import dev.podium.agent.workload.ExternalCommand;
import dev.podium.agent.workload.ReferenceTraining;
import dev.podium.events.bind.CrossField;
import dev.podium.events.bind.Distinct;
import dev.podium.events.bind.OneOf;
import dev.podium.events.bind.PlainText;
import dev.podium.events.model.Adaptive;
import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.Limits;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.hibernate.validator.constraints.Range;

/**
 * A job spec as its YAML file states it (the format is in the module README and {@code examples/jobs/}), each field
 * checked by its constraints and the fields against each other by {@link #check}; absent fields take their defaults in
 * the accessors named {@code ...OrDefault}. {@link JobSpecReader} reads it.
 */
@CrossField
record JobSpecDocument(
        @NotNull(message = "required") @Pattern(regexp = NAME, message = BAD_BENCHMARK)
        String benchmark,

        @PlainText String version,
        @PlainText String scenario,
        @PlainText String model,
        @PlainText String adapter,
        @CommandArguments JsonNode command,
        @PlainText String parser,

        @Size(max = Limits.MAX_MAP_ENTRIES, message = AT_MOST_ENTRIES)
        Map<@ParameterName String, @SingleValue String> parameters,

        @Size(max = Limits.MAX_MAP_ENTRIES, message = AT_MOST_ENTRIES)
        Map<
                        @ParameterName String,
                        @NotEmpty(message = "must be a non-empty list of values") @Distinct List<@SingleValue String>>
                matrix,

        @Range(min = 1, max = 100, message = BETWEEN) Integer repetitions,
        @Range(min = 0, max = 1_000_000, message = BETWEEN) Integer warmupSteps,

        @Range(min = 1, max = 7 * 24 * 3600, message = BETWEEN)
        Integer timeoutSeconds,

        @Size(max = Limits.MAX_MAP_ENTRIES, message = AT_MOST_ENTRIES)
        Map<
                        @Pattern(regexp = ENV_NAME, message = "is not a valid environment variable name") String,
                        @SingleValue String>
                environment,

        @Range(min = 1, max = 100_000, message = BETWEEN) Integer nodes,
        @Range(min = 0, max = 1024, message = BETWEEN) Integer devicesPerNode,
        @PlainText String pool,

        @Size(max = Limits.MAX_MAP_ENTRIES, message = AT_MOST_ENTRIES)
        Map<
                        @Pattern(regexp = NAME, message = "is not a valid metric name") String,
                        @NotNull(message = "required") @Valid Template>
                regex,

        @OneOf(
                value = {JobSpec.WARMUP_DECLARED, JobSpec.WARMUP_VERIFIED},
                message = BAD_WARMUP)
        String warmup,

        @Valid AdaptiveBlock adaptive)
        implements CrossField.Checked {

    static final String NAME = "[A-Za-z][A-Za-z0-9_.-]{0,63}";
    static final String ENV_NAME = "[A-Za-z_][A-Za-z0-9_]{0,127}";
    /** Most runs one spec's matrix may expand to. */
    static final int MAX_POINTS = 256;

    static final String BAD_BENCHMARK = "must start with a letter and use letters, digits, '_', '.', '-' (at most 64)";
    static final String AT_MOST_ENTRIES = "at most {max} entries";
    static final String BETWEEN = "must be between {min} and {max}, was ${validatedValue}";
    static final String BAD_WARMUP =
            "must be '" + JobSpec.WARMUP_DECLARED + "' or '" + JobSpec.WARMUP_VERIFIED + "', was '${validatedValue}'";

    JobSpecDocument {
        // Jackson binds an explicit null to a JsonNode as a null node; "command: ~" states no command, as an absent
        // one.
        command = command == null || command.isNull() ? null : command;
    }

    /** A metric read from the output with a regular expression; {@code name: "pattern"} is short for the pattern. */
    record Template(
            @NotNull(message = "required") @CapturingPattern String pattern,
            @PlainText String unit,

            @OneOf(
                    value = {"higher", "lower"},
                    message = "must be 'higher' or 'lower'")
            String direction,

            @OneOf(
                    value = {"last", "mean", "max", "min"},
                    message = "must be last, mean, max or min")
            String aggregate) {}

    /**
     * {@code adaptive: {max, target_half_width_pct, metric}}: as a campaign, runs beyond the first until the ratio's
     * interval is within the target ({@link Adaptive}); {@code repetitions} stays what each run repeats. Bounded here as
     * the command side bounds it, so that a spec with an absurd budget fails before it is submitted.
     */
    record AdaptiveBlock(
            @NotNull(message = "required") @Range(min = Adaptive.MIN_RUNS, max = Adaptive.MAX_RUNS, message = BETWEEN)
            Integer max,

            @NotNull(message = "required")
            @DecimalMin(value = "0.1", message = "must be between 0.1 and 50 percent, was ${validatedValue}")
            @DecimalMax(value = "50", message = "must be between 0.1 and 50 percent, was ${validatedValue}")
            Double targetHalfWidthPct,

            @Pattern(regexp = NAME, message = "is not a valid metric name")
            String metric) {

        Adaptive value() {
            return new Adaptive(max, targetHalfWidthPct, metric == null ? null : metric.strip());
        }
    }

    Adaptive adaptiveOrNull() {
        return adaptive == null ? null : adaptive.value();
    }

    String adapterOrDefault() {
        return adapter == null ? ReferenceTraining.NAME : adapter.strip();
    }

    /** True when the agent ships the workload's command (every adapter but {@code command}). */
    boolean shipped() {
        return !adapterOrDefault().equals(ExternalCommand.NAME);
    }

    String parserOrDefault() {
        if (parser != null) {
            return parser.strip();
        }
        return regex != null && !regex.isEmpty() && !shipped() ? "regex" : JobSpec.defaultParser(adapterOrDefault());
    }

    int warmupStepsOrDefault() {
        return warmupSteps != null ? warmupSteps : shipped() ? 2 : 0;
    }

    @Override
    public void check(CrossField.Report report) {
        String a = adapterOrDefault();
        if (!Adapter.NAMES.contains(a)) {
            report.add("adapter", "must be one of " + new TreeSet<>(Adapter.NAMES) + ", was '" + a + "'");
        } else if (!shipped() && command == null) {
            report.add("command", "required when adapter is 'command'");
        } else if (shipped() && command != null) {
            report.add("command", "not allowed with adapter '" + a + "' (the agent ships that command)");
        }
        String p = parserOrDefault();
        if (!p.equals("regex") && Parsers.byFormat(p).isEmpty()) {
            report.add("parser", "unknown format '" + p + "'; use one of " + Parsers.FORMATS + ", auto or regex");
        }
        if (p.equals("regex") && (regex == null || regex.isEmpty())) {
            report.add("regex", "parser 'regex' needs at least one template");
        }
        checkWarmup(report, a);
        BigInteger points = BigInteger.ONE;
        for (List<String> values : matrix == null ? List.<List<String>>of() : matrix.values()) {
            points = points.multiply(BigInteger.valueOf(values == null || values.isEmpty() ? 1 : values.size()));
        }
        if (points.compareTo(BigInteger.valueOf(MAX_POINTS)) > 0) {
            report.add("matrix", "expands to " + points + " runs, more than " + MAX_POINTS);
        }
    }

    /**
     * {@code warmup}: how a command's figures leave out its warm-up, {@code excluded-by-tool} (declared) or
     * {@code from-step-log} (the agent skips {@code warmup_steps} steps of the tool's per-step log, so it needs one or
     * more).
     */
    private void checkWarmup(CrossField.Report report, String adapter) {
        if (warmup == null) {
            return;
        }
        if (adapter.equals(ReferenceTraining.NAME)) {
            report.add("warmup", "only for adapter 'command' (the reference workload reports its warm-up steps)");
        }
        if (warmup.equals(JobSpec.WARMUP_VERIFIED) && warmupStepsOrDefault() < 1) {
            report.add(
                    "warmupSteps",
                    "must be 1 or more with warmup '" + JobSpec.WARMUP_VERIFIED
                            + "' (the steps of the tool's log the agent leaves out)");
        }
    }
}
