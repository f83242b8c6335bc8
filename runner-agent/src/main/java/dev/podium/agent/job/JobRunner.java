package dev.podium.agent.job;

import dev.podium.agent.AgentVersion;
import dev.podium.agent.config.Redactor;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.measure.RunChecks;
import dev.podium.agent.measure.Sampler;
import dev.podium.agent.measure.Summary;
import dev.podium.agent.measure.WarmupCheck;
import dev.podium.agent.parse.JsonLinesParser;
import dev.podium.agent.parse.OutputParser;
import dev.podium.agent.parse.ParseResult;
import dev.podium.agent.parse.ParsedMetric;
import dev.podium.agent.parse.Parsers;
import dev.podium.agent.parse.RegexParser;
import dev.podium.agent.parse.StepLog;
import dev.podium.agent.parse.StepSample;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.workload.ProcessOutcome;
import dev.podium.agent.workload.ChildEnvironment;
import dev.podium.agent.workload.ProcessRunner;
import dev.podium.agent.workload.Adapter;
import dev.podium.agent.workload.ShippedWorkload;
import dev.podium.events.StreamId;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Metric;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.model.Provenance;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.Software;
import dev.podium.events.model.Workload;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.ValueChecks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Executes a job: one run stream per point of its matrix, each with its repetitions, and publishes what happened as run
 * events through the {@link EventSink}. A failed point is reported with {@code RunFailed} and the next point still runs;
 * a cancel stops the current process, reports {@code RunCancelled} and runs nothing more.
 */
public final class JobRunner {

    /** Series longer than this are split over several MetricSampled events, each well under the record limit. */
    static final int SAMPLES_PER_EVENT = 2000;
    /**
     * Parameters that are not extra dimensions of the comparison key: every name of a fixed dimension
     * ({@link ComparisonKey#FIXED_DIMENSIONS}, which the key refuses in its extra map; such parameters fill the fixed
     * fields instead), the shipped workloads' names for them (batch_size, size, nproc, image_size), and those that do
     * not change what is compared (seed, steps, requests, device, interpreter).
     */
    static final Set<String> KEY_FIXED = java.util.stream.Stream.concat(ComparisonKey.FIXED_DIMENSIONS.stream(),
            java.util.stream.Stream.of("batch_size", "size", "steps", "seed", "device", "python", "nproc",
                    "image_size", "requests"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    /** A RunProgress at most every this many steps unless set otherwise; about ten per repetition when the total is known. */
    static final int DEFAULT_PROGRESS_STEPS = 10;
    /** Steps of a repetition's log kept for {@code warmup: from-step-log}, at most. */
    static final int MAX_LOGGED_STEPS = 100_000;

    private final EventSink sink;
    private final Fingerprint fingerprint;
    private final Path workDir;
    private final String python;
    private final Progress progress;
    private final ToolRunner tools;
    private final long sampleIntervalMillis;
    private final ProcessRunner process = new ProcessRunner();
    private Map<String, Software> softwareByPython = new java.util.HashMap<>();
    private ChildEnvironment childEnvironment = new ChildEnvironment(List.of());
    private volatile String cancelReason;
    private int progressEverySteps;
    private Duration progressMinInterval = Duration.ofSeconds(5);

    public JobRunner(EventSink sink, Fingerprint fingerprint, Path workDir, String python, Progress progress, ToolRunner tools,
            long sampleIntervalMillis) {
        this.sink = sink;
        this.fingerprint = fingerprint;
        this.workDir = workDir;
        this.python = python;
        this.progress = progress;
        this.tools = tools;
        this.sampleIntervalMillis = sampleIntervalMillis;
    }

    /**
     * How often a RunProgress reports the steps of a running repetition: every {@code steps} steps (0: about a tenth of
     * the total, or every {@value #DEFAULT_PROGRESS_STEPS} when the total is unknown) and no more often than
     * {@code minInterval}.
     */
    public JobRunner progressEvery(int steps, Duration minInterval) {
        if (steps < 0 || minInterval.isNegative()) {
            throw new IllegalArgumentException("progress steps and interval must not be negative");
        }
        this.progressEverySteps = steps;
        this.progressMinInterval = minInterval;
        return this;
    }

    /**
     * Probes each interpreter once across all the runners sharing {@code cache} (a daemon's jobs), instead of once per
     * runner. The map must be safe for concurrent use and allow null values (an interpreter whose probe failed), e.g.
     * {@code Collections.synchronizedMap(new HashMap<>())}.
     */
    /** Lets jobs set these environment variables too, beyond {@link ChildEnvironment#DISTRIBUTED}. */
    public JobRunner allowingEnvironment(java.util.Collection<String> names) {
        this.childEnvironment = new ChildEnvironment(names);
        return this;
    }

    public JobRunner sharingSoftwareProbes(Map<String, Software> cache) {
        this.softwareByPython = cache;
        return this;
    }

    public void cancel() {
        process.cancel();
    }

    /** Stops the running process; the RunCancelled published for it gives {@code reason}. */
    public void cancel(String reason) {
        cancelReason = reason;
        process.cancel();
    }

    public List<RunOutcome> run(JobDefinition job) {
        Path scripts = prepare(job);
        List<Map<String, String>> points = job.points();
        List<RunOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            if (process.isCancelled()) {
                break;
            }
            UUID runId = UUID.randomUUID();
            outcomes.add(runPoint(job, points.get(i), scripts, "[" + (i + 1) + "/" + points.size() + "]",
                    sink.stream(StreamId.run(runId)), runId, null, null, Map.of()));
        }
        return outcomes;
    }

    /**
     * Runs a job granted through {@code podium.jobs} as the run a claim opened: its events continue {@code stream} (whose
     * first event is the JobClaimed), and RunStarted names the job and the lease epoch. Such a job has exactly one point,
     * since the command side expands the matrix into one job per point.
     */
    public RunOutcome runGranted(JobDefinition job, EventSink.StreamWriter stream, UUID runId, UUID jobId, int leaseEpoch,
            Map<String, String> secrets) {
        List<Map<String, String>> points = job.points();
        if (points.size() != 1) {
            throw new JobSpecException("matrix", "a job from podium.jobs must be one point, this one has " + points.size());
        }
        return runPoint(job, points.get(0), prepare(job), "[job " + jobId + "]", stream, runId, jobId, leaseEpoch,
                secrets);
    }

    /** Checks every point's parameters and extracts the shipped scripts (null for the command adapter). */
    private Path prepare(JobDefinition job) {
        Adapter adapter = Adapter.of(job.spec());
        job.points().forEach(adapter::check);
        try {
            java.nio.file.Files.createDirectories(workDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create the work directory " + workDir, e);
        }
        return adapter.shipped() ? ShippedWorkload.extract(workDir) : null;
    }

    /** {@code secrets} join the workload's environment; their values are masked in everything the run publishes. */
    private RunOutcome runPoint(JobDefinition job, Map<String, String> requested, Path scripts, String label,
            EventSink.StreamWriter stream, UUID runId, UUID jobId, Integer leaseEpoch,
            Map<String, String> secrets) {
        JobSpec spec = job.spec();
        Adapter adapter = Adapter.of(spec);
        boolean shipped = adapter.shipped();
        // A command job runs what it likes anyway, so its `python` only says which interpreter the probe asks.
        String py = shipped ? python : requested.getOrDefault("python", python);
        List<String> command = adapter.command(py, scripts, requested, spec.warmupSteps());
        Map<String, String> point = adapter.keyed(requested, software(py));
        Adapter.KeyDefaults defaults = adapter.defaults(job, point);
        Redactor redactor = Redactor.of(spec.environment(), command).alsoMasking(secrets.values());
        Map<String, String> environment = childEnvironment.build(System.getenv(), spec.environment(),
                name -> progress.line("environment variable " + name + " of the job is not on this agent's allowlist"
                        + " (--allow-env adds a name); left out"));
        environment.putAll(secrets);
        String pointText = describe(point, spec.matrix().keySet());
        progress.line((label + " run " + runId + " " + pointText).strip());

        // Parameters named like fixed dimensions of the key fill them when the spec itself does not.
        String model = defaults.model() != null ? defaults.model()
                : job.model() != null ? job.model() : shown(redactor, point.get(ComparisonKey.MODEL));
        String scenario = job.scenario() != null ? job.scenario()
                : point.containsKey(ComparisonKey.SCENARIO) ? shown(redactor, point.get(ComparisonKey.SCENARIO))
                : defaults.scenario();
        String benchmarkVersion = job.benchmarkVersion() != null ? job.benchmarkVersion()
                : shown(redactor, point.get(ComparisonKey.BENCHMARK_VERSION));
        Map<String, String> shownParams = new TreeMap<>();
        point.forEach((k, v) -> shownParams.put(clip(k, 128),
                Redactor.isSecretName(k) ? Redactor.MASK : clip(redactor.text(v), Limits.MAX_STRING_CHARS)));
        Workload workload = new Workload(spec.benchmark(), benchmarkVersion, scenario, model,
                defaults.dataset(), shownParams,
                clip(String.join(" ", redactor.args(command)), Limits.MAX_TEXT_CHARS));
        boolean cpuOnly = adapter.cpuOnly(point, !fingerprint.accelerators().isEmpty());
        int devices = adapter.devicesPerNode(spec, point);
        List<Accelerator> accelerators = accelerators(cpuOnly, devices, shipped ? 1 : spec.nodes());
        SortedExtra extra = new SortedExtra(shownParams, KEY_FIXED);
        Integer batch = point.containsKey("batch_size") ? integer(point.get("batch_size"))
                : integer(point.get(ComparisonKey.BATCH_SIZE));
        Integer statedTotal = integer(point.get(ComparisonKey.TOTAL_ACCELERATORS));
        ComparisonKey key = new ComparisonKey(spec.benchmark(), benchmarkVersion, workload.scenario(), model,
                point.getOrDefault(ComparisonKey.PRECISION, defaults.precision()), batch,
                defaults.totalAccelerators() != null ? defaults.totalAccelerators()
                        : statedTotal != null ? statedTotal : spec.nodes() * devices,
                point.containsKey(ComparisonKey.INPUT_SIZE) ? integer(point.get(ComparisonKey.INPUT_SIZE))
                        : defaults.inputSize(),
                extra.map());
        String parserName = spec.parser();
        stream.emit(new RunStarted(runId, jobId, leaseEpoch, fingerprint.host(), accelerators, software(py), workload, key,
                spec.repetitions(), spec.warmupSteps(), new Provenance(sink.agentId(), AgentVersion.VERSION, parserName)));

        OutputParser parser = parser(job);
        List<List<ParsedMetric>> perRepetition = new ArrayList<>();
        List<Sample> stepSeries = new ArrayList<>();
        long started = System.nanoTime();
        String warmupHandling = shipped ? null : spec.warmup();
        boolean verifying = JobSpec.WARMUP_VERIFIED.equals(warmupHandling);
        // A spec from podium.jobs has not been through JobSpecReader: nothing left out is nothing verified.
        String notVerified = verifying && spec.warmupSteps() < 1 ? "warmup_steps is 0, so no step of the log is left out" : null;
        long verifiedSteps = 0;
        List<Double> repetitionSeconds = new ArrayList<>();
        List<List<Double>> losses = new ArrayList<>();
        Double utilisationBeforeStart;
        java.util.Set<Long> foreignProcesses;
        try (Sampler sampler = new Sampler(tools, sampleIntervalMillis)) {
            utilisationBeforeStart = cpuOnly ? null : sampler.utilisationNow();
            for (int rep = 0; rep < spec.repetitions(); rep++) {
                int repNo = rep + 1;
                String repLabel = (label + " " + pointText).strip() + " rep " + repNo + "/" + spec.repetitions();
                sampler.repetition(rep);
                stream.emit(new RunProgress(runId, rep, 0, adapter.totalSteps(spec, point), "measure",
                        "repetition " + repNo + " of " + spec.repetitions()));
                AtomicLong steps = new AtomicLong();
                long total = adapter.totalSteps(spec, point);
                StepProgress stepProgress = new StepProgress(stream, runId, rep, total);
                List<Double> repLosses = java.util.Collections.synchronizedList(new ArrayList<>());
                losses.add(repLosses);
                List<StepSample> logged = java.util.Collections.synchronizedList(new ArrayList<>());
                long repStarted = System.nanoTime();
                ProcessOutcome outcome = process.run(command, environment, workDir, Duration.ofSeconds(spec.timeoutSeconds()),
                        line -> {
                            JsonLinesParser.stepLine(line).ifPresent(st -> {
                                long n = steps.incrementAndGet();
                                progress.step(repLabel, n, total);
                                stepProgress.step(n, st);
                                if (verifying && logged.size() < MAX_LOGGED_STEPS) {
                                    logged.add(st);
                                }
                            });
                            JsonLinesParser.stepLoss(line).ifPresent(repLosses::add);
                        });
                repetitionSeconds.add((System.nanoTime() - repStarted) / 1e9);
                if (outcome.cancelled()) {
                    String why = cancelReason;
                    stream.emit(new RunCancelled(runId, clip((why == null ? "cancelled by the operator" : why)
                            + " during repetition " + repNo, Limits.MAX_TEXT_CHARS)));
                    progress.line(label + " cancelled");
                    return new RunOutcome(runId, point, RunOutcome.Status.CANCELLED, List.of(), "cancelled");
                }
                if (shipped && !outcome.ok() && Integer.valueOf(ShippedWorkload.NO_SUCH_PATH).equals(outcome.exitCode())) {
                    return fail(stream, runId, point, "unsupported", outcome.exitCode(), "not measured: "
                            + redactor.text(lastLine(outcome.tail())), redactor.text(outcome.tail()), label);
                }
                if (!outcome.ok()) {
                    String phase = outcome.timedOut() ? "timeout" : outcome.startError() != null ? "setup" : "measure";
                    String reason = outcome.timedOut() ? "repetition " + repNo + " ran past the timeout of "
                            + spec.timeoutSeconds() + " s"
                            : outcome.startError() != null ? outcome.startError()
                            : "repetition " + repNo + " exited with code " + outcome.exitCode();
                    return fail(stream, runId, point, phase, outcome.exitCode(), redactor.text(reason), redactor.text(outcome.tail()), label);
                }
                ParseResult parsed = parser.parse(outcome.stdout());
                List<ParsedMetric> found = parsed.metrics();
                if (verifying) {
                    List<ParsedMetric> fromLog = StepLog.afterWarmup(List.copyOf(logged), spec.warmupSteps());
                    if (fromLog.isEmpty()) {
                        notVerified = notVerified != null ? notVerified : "repetition " + repNo + ": the tool's per-step log had "
                                + logged.size() + " steps, none after the first " + spec.warmupSteps();
                    } else {
                        verifiedSteps += metric(fromLog, JsonLinesParser.STEP_TIME).map(m -> m.samples().size()).orElse(0);
                        found = withStepLog(fromLog, found);
                    }
                }
                String primary = primaryMetric(parsed, found, adapter.requiredMetric(point));
                java.util.Optional<String> contradiction = adapter.contradiction(point, parsed);
                if (contradiction.isPresent()) {
                    return fail(stream, runId, point, "parse", outcome.exitCode(), contradiction.get(),
                            redactor.text(outcome.tail()), label);
                }
                if (primary == null) {
                    return fail(stream, runId, point, "parse", outcome.exitCode(), redactor.text("no metrics found by parser "
                            + parserName + (parsed.warnings().isEmpty() ? "" : " (" + String.join("; ", parsed.warnings()) + ")")),
                            redactor.text(outcome.tail()), label);
                }
                perRepetition.add(found);
                double offset = sampler.secondsSinceStart();
                List<StepSample> st = parsed.steps();
                double t = Math.max(0, offset - st.stream().mapToDouble(StepSample::seconds).sum());
                for (StepSample s : st) {
                    t += s.seconds();
                    if (!s.warmup() && stepSeries.size() < Limits.MAX_ARRAY_ITEMS * 5) {
                        stepSeries.add(new Sample(t, s.samplesPerSecond(), rep, null));
                    }
                }
                stream.emit(new RunProgress(runId, rep, Math.max(total, steps.get()), Math.max(total, steps.get()), "measure",
                        "repetition " + repNo + " done: "
                        + metric(found, primary).map(m -> format(m.value()) + " " + m.unit()).orElse("")));
                progress.line(repLabel + ": " + primary + " = "
                        + metric(found, primary).map(m -> format(m.value()) + " " + m.unit()).orElse("?"));
            }
            foreignProcesses = sampler.foreignProcesses();
            emitSeries(stream, runId, SeriesKind.STEP_THROUGHPUT, "samples/s", stepSeries);
            sampler.finish().forEach((kind, samples) -> emitSeries(stream, runId, kind, Sampler.unit(kind), samples));
        }
        ValidityCheck warmupCheck = shipped ? WarmupCheck.separated()
                : JobSpec.WARMUP_DECLARED.equals(warmupHandling) ? WarmupCheck.declared()
                : !verifying ? WarmupCheck.notSeparated()
                : notVerified != null ? WarmupCheck.notVerified(notVerified)
                : WarmupCheck.verified(spec.warmupSteps(), verifiedSteps, perRepetition.size());
        List<Metric> metrics = Summary.metrics(perRepetition, warmupCheck.passed());
        String primary = adapter.requiredMetric(point).flatMap(n -> metrics.stream().filter(m -> m.name().equals(n)).findFirst())
                .or(() -> metrics.stream().filter(m -> m.name().equals(JsonLinesParser.THROUGHPUT)).findFirst())
                .or(() -> metrics.stream().filter(m -> m.direction() == Direction.HIGHER_IS_BETTER).findFirst())
                .or(() -> metrics.stream().findFirst()).map(Metric::name).orElse(JsonLinesParser.THROUGHPUT);
        double duration = (System.nanoTime() - started) / 1e9;
        List<ValidityCheck> validity = new ArrayList<>(Summary.validity(metrics, primary, spec.repetitions(), perRepetition.size(),
                warmupCheck));
        validity.add(ValueChecks.duration(repetitionSeconds));
        RunChecks.lossDecreased(losses).ifPresent(validity::add);
        RunChecks.deviceNotShared(utilisationBeforeStart, foreignProcesses).ifPresent(validity::add);
        RunChecks.deviceMatches(point.getOrDefault("device_id", point.get("expected_device")),
                accelerators.isEmpty() ? null : accelerators.get(0).deviceId()).ifPresent(validity::add);
        stream.emit(new RunCompleted(runId, metrics, validity, duration));
        metrics.stream().filter(m -> m.name().equals(primary)).findFirst().ifPresent(m -> progress.line(String.format(
                java.util.Locale.ROOT, "%s: %s mean %s %s (95%% CI %s..%s, cv %.1f%%, n=%d)", (label + " " + pointText).strip(), primary,
                format(m.statistics().mean()), m.unit(), format(m.statistics().ci95Low()), format(m.statistics().ci95High()),
                m.statistics().cv() * 100, m.statistics().n())));
        return new RunOutcome(runId, point, RunOutcome.Status.COMPLETED, metrics, null);
    }

    private RunOutcome fail(EventSink.StreamWriter stream, UUID runId, Map<String, String> point, String phase, Integer exitCode,
            String reason, String tail, String label) {
        stream.emit(new RunFailed(runId, phase, exitCode, clip(reason, Limits.MAX_TEXT_CHARS),
                tail == null ? null : clipTail(tail, Limits.MAX_TEXT_CHARS)));
        progress.line(label + " failed in " + phase + ": " + reason);
        return new RunOutcome(runId, point, RunOutcome.Status.FAILED, List.of(), reason);
    }

    private void emitSeries(EventSink.StreamWriter stream, UUID runId, SeriesKind kind, String unit, List<Sample> samples) {
        for (int i = 0; i < samples.size(); i += SAMPLES_PER_EVENT) {
            stream.emit(new MetricSampled(runId, kind, unit, samples.subList(i, Math.min(samples.size(), i + SAMPLES_PER_EVENT))));
        }
    }

    private OutputParser parser(JobDefinition job) {
        String format = job.spec().parser();
        if ("regex".equals(format)) {
            return new RegexParser(job.regexTemplates());
        }
        return Parsers.byFormat(format).orElseThrow(() -> new JobSpecException("parser", "unknown format " + format));
    }

    private static String primaryMetric(ParseResult parsed, List<ParsedMetric> found, java.util.Optional<String> required) {
        if (required.isPresent()) {
            return parsed.metric(required.get()).isPresent() ? required.get() : null;
        }
        return found.isEmpty() ? null : found.get(0).name();
    }

    private static java.util.Optional<ParsedMetric> metric(List<ParsedMetric> metrics, String name) {
        return metrics.stream().filter(m -> m.name().equals(name)).reduce((a, b) -> b);
    }

    /**
     * The agent's figures from the step log first (its throughput is then the run's primary metric), then the tool's
     * other metrics; a tool's metric of the same name, which may include the warm-up, gives way.
     */
    static List<ParsedMetric> withStepLog(List<ParsedMetric> fromLog, List<ParsedMetric> tool) {
        Set<String> names = fromLog.stream().map(ParsedMetric::name).collect(java.util.stream.Collectors.toSet());
        List<ParsedMetric> out = new ArrayList<>(fromLog);
        tool.stream().filter(m -> !names.contains(m.name())).forEach(out::add);
        return out;
    }

    private static String lastLine(String tail) {
        return tail == null ? "" : tail.strip().lines().reduce((a, b) -> b).orElse("");
    }

    private List<Accelerator> accelerators(boolean cpuOnly, int devicesPerNode, int nodes) {
        if (cpuOnly) {
            return List.of(HostDetector.cpuAsAccelerator(fingerprint.host()));
        }
        Accelerator a = fingerprint.accelerators().get(0);
        int perNode = Math.min(devicesPerNode, a.countPerNode());
        return List.of(new Accelerator(a.vendor(), a.model(), a.deviceId(), a.memoryBytes(), perNode, perNode * nodes,
                a.interconnect(), a.driver(), a.firmware(), a.runtime()));
    }

    /** The software stack of the interpreter a point runs with, probed once per interpreter. */
    private Software software(String py) {
        if (!softwareByPython.containsKey(py)) {
            softwareByPython.put(py, new PythonProbe(py, tools).software());
        }
        return softwareByPython.get(py);
    }

    /**
     * RunProgress from the step lines of a running repetition, throttled: every {@link #progressEverySteps} steps and
     * no more often than {@link #progressMinInterval}. Called from the thread that reads the workload's output.
     */
    private final class StepProgress {
        private final EventSink.StreamWriter stream;
        private final UUID runId;
        private final int repetition;
        private final long total;
        private final long every;
        private long lastStep;
        private long lastNanos;

        StepProgress(EventSink.StreamWriter stream, UUID runId, int repetition, long total) {
            this.stream = stream;
            this.runId = runId;
            this.repetition = repetition;
            this.total = total;
            this.every = progressEverySteps > 0 ? progressEverySteps
                    : total > 0 ? Math.max(1, total / 10) : DEFAULT_PROGRESS_STEPS;
            this.lastNanos = System.nanoTime();
        }

        void step(long n, StepSample sample) {
            if (n - lastStep < every || (total > 0 && n >= total)) {
                return; // the end of the repetition has its own RunProgress
            }
            long now = System.nanoTime();
            if (now - lastNanos < progressMinInterval.toNanos()) {
                return;
            }
            lastStep = n;
            lastNanos = now;
            try {
                stream.emit(new RunProgress(runId, repetition, n, Math.max(total, n), "measure", "step " + n
                    + (total > 0 ? " of " + total : "") + (sample.warmup() ? " (warm-up)" : "") + ": "
                    + format(sample.samplesPerSecond()) + " samples/s"));
            } catch (RuntimeException e) {
                // A lost progress report must not stop the reading of the output; a journal that refuses events
                // fails the run at its next event on the runner's own thread.
            }
        }
    }

    private static Integer integer(String s) {
        if (s == null) {
            return null;
        }
        try {
            int v = Integer.parseInt(s.strip());
            return v >= 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String shown(Redactor redactor, String value) {
        return clip(redactor.text(value), Limits.MAX_STRING_CHARS);
    }

    private static String describe(Map<String, String> point, Set<String> axes) {
        StringBuilder sb = new StringBuilder();
        for (String a : axes) {
            sb.append(sb.length() == 0 ? "" : " ").append(a).append('=').append(point.get(a));
        }
        return sb.toString();
    }

    static String format(double v) {
        return String.format(java.util.Locale.ROOT, v >= 100 ? "%.1f" : "%.3f", v);
    }

    static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    /** The end of a log matters more than its start. */
    static String clipTail(String s, int max) {
        return s.length() <= max ? s : "…" + s.substring(s.length() - max + 1);
    }

    /** The comparison key's extra parameters: those of the point that are not fixed fields of the key. */
    private record SortedExtra(Map<String, String> point, Set<String> fixed) {
        java.util.SortedMap<String, String> map() {
            java.util.SortedMap<String, String> m = new TreeMap<>();
            point.forEach((k, v) -> {
                if (!fixed.contains(k)) {
                    m.put(clip(k, 128), clip(v, Limits.MAX_STRING_CHARS));
                }
            });
            return m;
        }
    }
}
