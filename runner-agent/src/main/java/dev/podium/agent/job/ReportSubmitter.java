package dev.podium.agent.job;

import dev.podium.agent.AgentVersion;
import dev.podium.agent.config.Redactor;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.measure.Summary;
import dev.podium.agent.parse.OutputParser;
import dev.podium.agent.parse.ParseResult;
import dev.podium.agent.parse.ParsedMetric;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Provenance;
import dev.podium.events.model.Workload;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Publishes existing benchmark outputs as one run, the way a CI pipeline uploads results: each output is one repetition.
 * Outputs in which the parser finds nothing make the run {@code RunFailed} in phase "parse", so a broken upload is
 * visible rather than silently missing.
 */
public final class ReportSubmitter {

    /** What the operator states about the outputs, since a report rarely says it all. */
    public record Description(
            String benchmark,
            String version,
            String scenario,
            String model,
            String precision,
            Integer batchSize,
            int devices,
            SortedMap<String, String> parameters) {}

    private static final int TAIL_CHARS = 4000;

    private final EventSink sink;
    private final Fingerprint fingerprint;
    private final Redactor redactor;

    /** Masks the secrets of this process's own environment (and secret-shaped text) in what it publishes. */
    public ReportSubmitter(EventSink sink, Fingerprint fingerprint) {
        this(sink, fingerprint, Redactor.of(System.getenv(), List.of()));
    }

    public ReportSubmitter(EventSink sink, Fingerprint fingerprint, Redactor redactor) {
        this.sink = sink;
        this.fingerprint = fingerprint;
        this.redactor = redactor;
    }

    public RunOutcome submit(OutputParser parser, List<String> outputs, List<String> names, Description d) {
        UUID runId = TimeOrderedIds.next();
        EventSink.StreamWriter stream = sink.stream(StreamId.run(runId));
        stream.emit(started(runId, parser, outputs.size(), names, d));
        List<List<ParsedMetric>> reps = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            ParseResult r = parser.parse(outputs.get(i));
            if (r.metrics().isEmpty()) {
                return unparsed(stream, runId, parser, r, outputs.get(i), names.get(i));
            }
            reps.add(r.metrics());
        }
        return completed(stream, runId, reps, outputs.size());
    }

    private RunStarted started(UUID runId, OutputParser parser, int repetitions, List<String> names, Description d) {
        SortedMap<String, String> params = parameters(d);
        List<Accelerator> accelerators = fingerprint.accelerators().isEmpty()
                ? List.of(HostDetector.cpuAsAccelerator(fingerprint.host()))
                : List.of(withCount(fingerprint.accelerators().get(0), d.devices()));
        Workload workload = new Workload(
                d.benchmark(),
                d.version(),
                d.scenario(),
                d.model(),
                null,
                params,
                JobRunner.clip(
                        "podium-agent submit --format " + parser.format() + " " + String.join(" ", names),
                        Limits.MAX_TEXT_CHARS));
        return new RunStarted(
                runId,
                null,
                null,
                fingerprint.host(),
                accelerators,
                fingerprint.software(),
                workload,
                key(d, params, accelerators.get(0)),
                repetitions,
                0,
                new Provenance(sink.agentId(), AgentVersion.VERSION, parser.format()),
                null);
    }

    /** The stated parameters, clipped, secret ones masked and secrets in values redacted. */
    private SortedMap<String, String> parameters(Description d) {
        SortedMap<String, String> params = new TreeMap<>();
        d.parameters()
                .forEach((k, v) -> params.put(
                        JobRunner.clip(k, 128),
                        Redactor.isSecretName(k)
                                ? Redactor.MASK
                                : JobRunner.clip(redactor.text(v), Limits.MAX_STRING_CHARS)));
        return params;
    }

    private static ComparisonKey key(Description d, SortedMap<String, String> params, Accelerator accelerator) {
        SortedMap<String, String> extra = new TreeMap<>(params);
        extra.keySet().removeAll(JobRunner.KEY_FIXED);
        return new ComparisonKey(
                d.benchmark(),
                d.version(),
                d.scenario(),
                d.model(),
                d.precision(),
                d.batchSize(),
                accelerator.total(),
                null,
                extra);
    }

    private RunOutcome unparsed(
            EventSink.StreamWriter stream, UUID runId, OutputParser parser, ParseResult r, String output, String name) {
        String reason = "no metrics found in " + name + " by parser " + parser.format()
                + (r.warnings().isEmpty() ? "" : " (" + String.join("; ", r.warnings()) + ")");
        // A report is a file the operator chose, not written for publishing: only its redacted tail leaves,
        // redacted over twice its length before the cut, so that the cut never leaves half a secret unmasked.
        stream.emit(new RunFailed(
                runId,
                "parse",
                null,
                JobRunner.clip(redactor.text(reason), Limits.MAX_TEXT_CHARS),
                JobRunner.clipTail(redactor.text(JobRunner.clipTail(output, 2 * TAIL_CHARS)), TAIL_CHARS)));
        return new RunOutcome(runId, Map.of(), RunOutcome.Status.FAILED, List.of(), reason);
    }

    private static RunOutcome completed(
            EventSink.StreamWriter stream, UUID runId, List<List<ParsedMetric>> reps, int repetitions) {
        List<Metric> metrics = Summary.metrics(reps, false);
        if (metrics.isEmpty()) {
            String reason = "no metric is present, non-negative, in every output";
            stream.emit(new RunFailed(runId, "parse", null, reason, null));
            return new RunOutcome(runId, Map.of(), RunOutcome.Status.FAILED, List.of(), reason);
        }
        String primary = metrics.stream()
                .filter(m -> m.direction() == Direction.HIGHER_IS_BETTER)
                .findFirst()
                .orElse(metrics.get(0))
                .name();
        stream.emit(new RunCompleted(
                runId, metrics, Summary.validity(metrics, primary, repetitions, repetitions, false), 0));
        return new RunOutcome(runId, Map.of(), RunOutcome.Status.COMPLETED, metrics, null);
    }

    private static Accelerator withCount(Accelerator a, int devices) {
        int n = devices > 0 ? devices : a.countPerNode();
        return new Accelerator(
                a.vendor(),
                a.model(),
                a.deviceId(),
                a.memoryBytes(),
                n,
                n,
                a.interconnect(),
                a.driver(),
                a.firmware(),
                a.runtime());
    }
}
