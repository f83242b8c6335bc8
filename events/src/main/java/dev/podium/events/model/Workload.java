package dev.podium.events.model;

import dev.podium.events.validate.Nullable;
import dev.podium.events.validate.Text;
import java.util.Map;

/** What ran: the benchmark, its scenario, model and dataset, its parameters, and the command with secrets redacted. */
public record Workload(
        String benchmark,
        @Nullable String benchmarkVersion,
        @Nullable String scenario,
        @Nullable String model,
        @Nullable String dataset,
        @Nullable Map<String, String> parameters,
        @Nullable @Text String command) {}
