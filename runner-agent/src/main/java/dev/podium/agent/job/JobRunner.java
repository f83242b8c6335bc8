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
import dev.podium.agent.workload.Adapter;
import dev.podium.agent.workload.ChildEnvironment;
import dev.podium.agent.workload.IsolatedTools;
import dev.podium.agent.workload.Isolation;
import dev.podium.agent.workload.ProcessOutcome;
import dev.podium.agent.workload.ProcessRunner;
import dev.podium.agent.workload.ShippedWorkload;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Provenance;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.Software;
import dev.podium.events.model.ThrottleSpan;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.model.Workload;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.ThrottleCheck;
import dev.podium.events.validate.ValueChecks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
    static final Set<String> KEY_FIXED = Stream.concat(
                    ComparisonKey.FIXED_DIMENSIONS.stream(),
                    Stream.of(
                            "batch_size",
                            "size",
                            "steps",
                            "seed",
                            "device",
                            "python",
                            "nproc",
                            "image_size",
                            "requests"))
            .collect(Collectors.toUnmodifiableSet());
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
    private Isolation isolation;
    private volatile ProcessRunner process;
    private ChildEnvironment childEnvironment = new ChildEnvironment(List.of());
    private volatile String cancelReason;
    private int progressEverySteps;
    private Duration progressMinInterval = Duration.ofSeconds(5);

    public JobRunner(
            EventSink sink,
            Fingerprint fingerprint,
            Path workDir,
            String python,
            Progress progress,
            ToolRunner tools,
            long sampleIntervalMillis) {
        this.sink = sink;
        this.fingerprint = fingerprint;
        this.workDir = workDir;
        this.python = python;
        this.progress = progress;
        this.tools = tools;
        this.sampleIntervalMillis = sampleIntervalMillis;
        isolatedBy(Isolation.off(workDir));
    }

    /** Runs workloads as {@code isolation} says (the agent decides it at start); {@link Isolation#off} until told. */
    public JobRunner isolatedBy(Isolation isolation) {
        this.isolation = isolation;
        this.process = new ProcessRunner(isolation);
        return this;
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

    /** Lets jobs set these environment variables too, beyond {@link ChildEnvironment#DISTRIBUTED}. */
    public JobRunner allowingEnvironment(Collection<String> names) {
        this.childEnvironment = new ChildEnvironment(names);
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
            UUID runId = TimeOrderedIds.next();
            outcomes.add(runPoint(
                    job,
                    points.get(i),
                    scripts,
                    "[" + (i + 1) + "/" + points.size() + "]",
                    sink.stream(StreamId.run(runId)),
                    runId,
                    null,
                    null,
                    Map.of()));
        }
        return outcomes;
    }

    /**
     * Runs a job granted through {@code podium.jobs} as the run a claim opened: its events continue {@code stream} (whose
     * first event is the JobClaimed), and RunStarted names the job and the lease epoch. Such a job has exactly one point,
     * since the command side expands the matrix into one job per point.
     */
    public RunOutcome runGranted(
            JobDefinition job,
            EventSink.StreamWriter stream,
            UUID runId,
            UUID jobId,
            int leaseEpoch,
            Map<String, String> secrets) {
        List<Map<String, String>> points = job.points();
        if (points.size() != 1) {
            throw new JobSpecException(
                    "matrix", "a job from podium.jobs must be one point, this one has " + points.size());
        }
        return runPoint(
                job, points.get(0), prepare(job), "[job " + jobId + "]", stream, runId, jobId, leaseEpoch, secrets);
    }

    /** Checks every point's parameters and extracts the shipped scripts (null for the command adapter). */
    private Path prepare(JobDefinition job) {
        Adapter adapter = Adapter.of(job.spec());
        isolation.refusal(adapter).ifPresent(why -> {
            throw new JobSpecException("adapter", why);
        });
        job.points().forEach(adapter::check);
        try {
            Files.createDirectories(isolation.runDirectory());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the work directory " + isolation.runDirectory(), e);
        }
        return adapter.shipped() ? ShippedWorkload.extract(workDir) : null;
    }

    /** What a point runs and how its run is keyed, worked out before it starts. */
    private record Plan(
            JobSpec spec,
            Adapter adapter,
            Map<String, String> point,
            List<String> command,
            Map<String, String> environment,
            Redactor redactor,
            String label,
            String pointText,
            Software software,
            boolean cpuOnly,
            int devicesPerNode,
            List<Accelerator> accelerators,
            OutputParser parser) {

        boolean shipped() {
            return adapter.shipped();
        }

        /** How a command job's warm-up is handled ({@code warmup:}); null for a shipped workload, which separates its own. */
        String warmupHandling() {
            return shipped() ? null : spec.warmup();
        }

        boolean verifying() {
            return JobSpec.WARMUP_VERIFIED.equals(warmupHandling());
        }

        long totalSteps() {
            return adapter.totalSteps(spec, point);
        }

        String repetitionLabel(int repNo) {
            return (label + " " + pointText).strip() + " rep " + repNo + "/" + spec.repetitions();
        }
    }

    /** What the repetitions of one run have measured so far. */
    private static final class Measurement {
        final long started = System.nanoTime();
        final List<List<ParsedMetric>> perRepetition = new ArrayList<>();
        final List<Sample> stepSeries = new ArrayList<>();
        final List<Double> repetitionSeconds = new ArrayList<>();
        final List<List<Double>> losses = new ArrayList<>();
        /** Why the warm-up could not be verified from the tool's step log; null while it can. */
        String notVerified;

        long verifiedSteps;
        Double utilisationBeforeStart;
        Set<Long> foreignProcesses;
        /** The accelerators as their tool reported them before the run; null without one, or on a CPU run. */
        List<AcceleratorDevice> devices;

        List<Sample> throttleReasons = List.of();
    }

    /** One repetition's process as it ended, with the steps its log reported. */
    private record Repetition(ProcessOutcome outcome, List<StepSample> logged, long steps, List<Double> losses) {}

    /** {@code secrets} join the workload's environment; their values are masked in everything the run publishes. */
    private RunOutcome runPoint(
            JobDefinition job,
            Map<String, String> requested,
            Path scripts,
            String label,
            EventSink.StreamWriter stream,
            UUID runId,
            UUID jobId,
            Integer leaseEpoch,
            Map<String, String> secrets) {
        JobSpec spec = job.spec();
        Plan plan = plan(job, requested, scripts, label, secrets);
        progress.line((label + " run " + runId + " " + plan.pointText()).strip());
        Measurement m = new Measurement();
        m.devices = plan.cpuOnly() ? null : Sampler.devices(tools);
        stream.emit(started(job, plan, runId, jobId, leaseEpoch, m.devices));

        if (plan.verifying() && spec.warmupSteps() < 1) {
            // A spec from podium.jobs has not been through JobSpecReader: nothing left out is nothing verified.
            m.notVerified = "warmup_steps is 0, so no step of the log is left out";
        }
        try (Sampler sampler = new Sampler(tools, sampleIntervalMillis)) {
            m.utilisationBeforeStart = plan.cpuOnly() ? null : sampler.utilisationNow();
            for (int rep = 0; rep < spec.repetitions(); rep++) {
                Optional<RunOutcome> ended = repetition(plan, m, sampler, stream, runId, rep);
                if (ended.isPresent()) {
                    return ended.get();
                }
            }
            m.foreignProcesses = sampler.foreignProcesses();
            emitSeries(stream, runId, SeriesKind.STEP_THROUGHPUT, "samples/s", m.stepSeries);
            Map<SeriesKind, List<Sample>> series = sampler.finish();
            m.throttleReasons = series.getOrDefault(SeriesKind.THROTTLE_REASONS, List.of());
            series.forEach((kind, samples) -> emitSeries(stream, runId, kind, Sampler.unit(kind), samples));
        }
        return completed(plan, m, stream, runId);
    }

    /** What one point of a job runs, with which environment and software, and what it publishes masked. */
    private Plan plan(
            JobDefinition job, Map<String, String> requested, Path scripts, String label, Map<String, String> secrets) {
        JobSpec spec = job.spec();
        Adapter adapter = Adapter.of(spec);
        // A command job runs what it likes anyway, so its `python` only says which interpreter the probe asks.
        String py = adapter.shipped() ? python : requested.getOrDefault("python", python);
        List<String> command = adapter.command(py, scripts, requested, spec.warmupSteps());
        Redactor redactor = Redactor.of(spec.environment(), command).alsoMasking(secrets.values());
        Map<String, String> environment = childEnvironment.build(
                System.getenv(),
                spec.environment(),
                name -> progress.line("environment variable " + name + " of the job is not on this agent's allowlist"
                        + " (--allow-env adds a name); left out"));
        // An interpreter the job chose is asked for its software as the workload runs, never as the agent.
        Software software =
                new PythonProbe(py, py.equals(python) ? tools : new IsolatedTools(isolation, environment)).software();
        Map<String, String> point = adapter.keyed(requested, software);
        environment.putAll(secrets);
        boolean cpuOnly = adapter.cpuOnly(point, !fingerprint.accelerators().isEmpty());
        int devices = adapter.devicesPerNode(spec, point);
        return new Plan(
                spec,
                adapter,
                point,
                command,
                environment,
                redactor,
                label,
                describe(point, spec.matrix().keySet()),
                software,
                cpuOnly,
                devices,
                accelerators(cpuOnly, devices, adapter.shipped() ? 1 : spec.nodes()),
                parser(job));
    }

    /** The RunStarted of a point: parameters named like fixed dimensions of the key fill them when the spec does not. */
    private RunStarted started(
            JobDefinition job,
            Plan plan,
            UUID runId,
            UUID jobId,
            Integer leaseEpoch,
            List<AcceleratorDevice> deviceStates) {
        JobSpec spec = plan.spec();
        Map<String, String> point = plan.point();
        Redactor redactor = plan.redactor();
        Adapter.KeyDefaults defaults = plan.adapter().defaults(job, point);
        String model = defaults.model() != null
                ? defaults.model()
                : job.model() != null ? job.model() : shown(redactor, point.get(ComparisonKey.MODEL));
        String scenario = job.scenario() != null
                ? job.scenario()
                : point.containsKey(ComparisonKey.SCENARIO)
                        ? shown(redactor, point.get(ComparisonKey.SCENARIO))
                        : defaults.scenario();
        String benchmarkVersion = job.benchmarkVersion() != null
                ? job.benchmarkVersion()
                : shown(redactor, point.get(ComparisonKey.BENCHMARK_VERSION));
        Map<String, String> shownParams = new TreeMap<>();
        point.forEach((k, v) -> shownParams.put(
                clip(k, 128),
                Redactor.isSecretName(k) ? Redactor.MASK : clip(redactor.text(v), Limits.MAX_STRING_CHARS)));
        Workload workload = new Workload(
                spec.benchmark(),
                benchmarkVersion,
                scenario,
                model,
                defaults.dataset(),
                shownParams,
                clip(String.join(" ", redactor.args(plan.command())), Limits.MAX_TEXT_CHARS));
        return new RunStarted(
                runId,
                jobId,
                leaseEpoch,
                fingerprint.host(),
                plan.accelerators(),
                plan.software(),
                workload,
                key(plan, workload, defaults),
                spec.repetitions(),
                spec.warmupSteps(),
                new Provenance(sink.agentId(), AgentVersion.VERSION, spec.parserOrDefault()),
                deviceStates);
    }

    /** The comparison key of a point: what the adapter knows first, then what the point states, then the spec's size. */
    private static ComparisonKey key(Plan plan, Workload workload, Adapter.KeyDefaults defaults) {
        Map<String, String> point = plan.point();
        Integer batch = point.containsKey("batch_size")
                ? integer(point.get("batch_size"))
                : integer(point.get(ComparisonKey.BATCH_SIZE));
        Integer statedTotal = integer(point.get(ComparisonKey.TOTAL_ACCELERATORS));
        return new ComparisonKey(
                workload.benchmark(),
                workload.benchmarkVersion(),
                workload.scenario(),
                workload.model(),
                point.getOrDefault(ComparisonKey.PRECISION, defaults.precision()),
                batch,
                defaults.totalAccelerators() != null
                        ? defaults.totalAccelerators()
                        : statedTotal != null ? statedTotal : plan.spec().nodes() * plan.devicesPerNode(),
                point.containsKey(ComparisonKey.INPUT_SIZE)
                        ? integer(point.get(ComparisonKey.INPUT_SIZE))
                        : defaults.inputSize(),
                new SortedExtra(workload.parameters(), KEY_FIXED).map());
    }

    /** Runs and records one repetition; the run's outcome when it ended there (cancelled, failed), else empty. */
    private Optional<RunOutcome> repetition(
            Plan plan, Measurement m, Sampler sampler, EventSink.StreamWriter stream, UUID runId, int rep) {
        JobSpec spec = plan.spec();
        int repNo = rep + 1;
        sampler.repetition(rep);
        stream.emit(new RunProgress(
                runId, rep, 0, plan.totalSteps(), "measure", "repetition " + repNo + " of " + spec.repetitions()));
        long repStarted = System.nanoTime();
        Repetition r = runProcess(plan, stream, runId, rep);
        m.repetitionSeconds.add((System.nanoTime() - repStarted) / 1e9);
        m.losses.add(r.losses());
        Optional<RunOutcome> ended = endedBy(plan, r.outcome(), stream, runId, repNo);
        if (ended.isPresent()) {
            return ended;
        }
        ParseResult parsed = plan.parser().parse(r.outcome().stdout());
        List<ParsedMetric> found =
                plan.verifying() ? withVerifiedWarmup(plan, m, r.logged(), parsed.metrics(), repNo) : parsed.metrics();
        String primary = primaryMetric(parsed, found, plan.adapter().requiredMetric(plan.point()));
        Optional<String> contradiction = plan.adapter().contradiction(plan.point(), parsed);
        if (contradiction.isPresent()) {
            return Optional.of(fail(
                    stream,
                    runId,
                    plan.point(),
                    "parse",
                    r.outcome().exitCode(),
                    contradiction.get(),
                    plan.redactor().text(r.outcome().tail()),
                    plan.label()));
        }
        if (primary == null) {
            return Optional.of(fail(
                    stream,
                    runId,
                    plan.point(),
                    "parse",
                    r.outcome().exitCode(),
                    plan.redactor()
                            .text("no metrics found by parser " + spec.parserOrDefault()
                                    + (parsed.warnings().isEmpty()
                                            ? ""
                                            : " (" + String.join("; ", parsed.warnings()) + ")")),
                    plan.redactor().text(r.outcome().tail()),
                    plan.label()));
        }
        m.perRepetition.add(found);
        addSteps(m.stepSeries, parsed.steps(), sampler.secondsSinceStart(), rep);
        long done = Math.max(plan.totalSteps(), r.steps());
        String value = metric(found, primary)
                .map(x -> format(x.value()) + " " + x.unit())
                .orElse("");
        stream.emit(new RunProgress(runId, rep, done, done, "measure", "repetition " + repNo + " done: " + value));
        progress.line(plan.repetitionLabel(repNo) + ": " + primary + " = " + (value.isEmpty() ? "?" : value));
        return Optional.empty();
    }

    /** Runs the workload once, following its step lines for progress, the warm-up check and the loss. */
    private Repetition runProcess(Plan plan, EventSink.StreamWriter stream, UUID runId, int rep) {
        String repLabel = plan.repetitionLabel(rep + 1);
        long total = plan.totalSteps();
        AtomicLong steps = new AtomicLong();
        StepProgress stepProgress = new StepProgress(stream, runId, rep, total);
        List<Double> losses = Collections.synchronizedList(new ArrayList<>());
        List<StepSample> logged = Collections.synchronizedList(new ArrayList<>());
        boolean verifying = plan.verifying();
        ProcessOutcome outcome = process.run(
                plan.command(),
                plan.environment(),
                Duration.ofSeconds(plan.spec().timeoutSeconds()),
                line -> {
                    JsonLinesParser.stepLine(line).ifPresent(st -> {
                        long n = steps.incrementAndGet();
                        progress.step(repLabel, n, total);
                        stepProgress.step(n, st);
                        if (verifying && logged.size() < MAX_LOGGED_STEPS) {
                            logged.add(st);
                        }
                    });
                    JsonLinesParser.stepLoss(line).ifPresent(losses::add);
                });
        return new Repetition(outcome, List.copyOf(logged), steps.get(), losses);
    }

    /** The run's end when the repetition's process did not finish well: cancelled, unsupported here, timed out, failed. */
    private Optional<RunOutcome> endedBy(
            Plan plan, ProcessOutcome outcome, EventSink.StreamWriter stream, UUID runId, int repNo) {
        Redactor redactor = plan.redactor();
        if (outcome.cancelled()) {
            String why = cancelReason;
            stream.emit(new RunCancelled(
                    runId,
                    clip(
                            (why == null ? "cancelled by the operator" : why) + " during repetition " + repNo,
                            Limits.MAX_TEXT_CHARS)));
            progress.line(plan.label() + " cancelled");
            return Optional.of(
                    new RunOutcome(runId, plan.point(), RunOutcome.Status.CANCELLED, List.of(), "cancelled"));
        }
        if (outcome.ok()) {
            return Optional.empty();
        }
        if (plan.shipped() && Integer.valueOf(ShippedWorkload.NO_SUCH_PATH).equals(outcome.exitCode())) {
            return Optional.of(fail(
                    stream,
                    runId,
                    plan.point(),
                    "unsupported",
                    outcome.exitCode(),
                    "not measured: " + redactor.text(lastLine(outcome.tail())),
                    redactor.text(outcome.tail()),
                    plan.label()));
        }
        String phase = outcome.timedOut() ? "timeout" : outcome.startError() != null ? "setup" : "measure";
        String reason = outcome.timedOut()
                ? "repetition " + repNo + " ran past the timeout of "
                        + plan.spec().timeoutSeconds() + " s"
                : outcome.startError() != null
                        ? outcome.startError()
                        : "repetition " + repNo + " exited with code " + outcome.exitCode();
        return Optional.of(fail(
                stream,
                runId,
                plan.point(),
                phase,
                outcome.exitCode(),
                redactor.text(reason),
                redactor.text(outcome.tail()),
                plan.label()));
    }

    /** {@code warmup: from-step-log}: throughput from the steps after the warm-up, or why it could not be verified. */
    private static List<ParsedMetric> withVerifiedWarmup(
            Plan plan, Measurement m, List<StepSample> logged, List<ParsedMetric> found, int repNo) {
        int warmup = plan.spec().warmupSteps();
        List<ParsedMetric> fromLog = StepLog.afterWarmup(logged, warmup);
        if (fromLog.isEmpty()) {
            if (m.notVerified == null) {
                m.notVerified = "repetition " + repNo + ": the tool's per-step log had " + logged.size()
                        + " steps, none after the first " + warmup;
            }
            return found;
        }
        m.verifiedSteps += metric(fromLog, JsonLinesParser.STEP_TIME)
                .map(x -> x.samples().size())
                .orElse(0);
        return withStepLog(fromLog, found);
    }

    /** The repetition's measured steps as throughput samples, timed back from where the sampler is now. */
    private static void addSteps(List<Sample> series, List<StepSample> steps, double offset, int rep) {
        double t = Math.max(
                0, offset - steps.stream().mapToDouble(StepSample::seconds).sum());
        for (StepSample s : steps) {
            t += s.seconds();
            if (!s.warmup() && series.size() < Limits.MAX_ARRAY_ITEMS * 5) {
                series.add(new Sample(t, s.samplesPerSecond(), rep, null));
            }
        }
    }

    /** The RunCompleted of a run whose repetitions all finished: its metrics, every validity check, the duration. */
    private RunOutcome completed(Plan plan, Measurement m, EventSink.StreamWriter stream, UUID runId) {
        JobSpec spec = plan.spec();
        ValidityCheck warmupCheck = warmupCheck(plan, m);
        List<Metric> metrics = Summary.metrics(
                m.perRepetition,
                warmupCheck.passed(),
                plan.shipped() ? WorkPerUnit.Basis.COMPUTED : WorkPerUnit.Basis.DECLARED);
        String primary = plan.adapter()
                .requiredMetric(plan.point())
                .flatMap(n -> metrics.stream().filter(x -> x.name().equals(n)).findFirst())
                .or(() -> metrics.stream()
                        .filter(x -> x.name().equals(JsonLinesParser.THROUGHPUT))
                        .findFirst())
                .or(() -> metrics.stream()
                        .filter(x -> x.direction() == Direction.HIGHER_IS_BETTER)
                        .findFirst())
                .or(() -> metrics.stream().findFirst())
                .map(Metric::name)
                .orElse(JsonLinesParser.THROUGHPUT);
        double duration = (System.nanoTime() - m.started) / 1e9;
        List<ValidityCheck> validity = new ArrayList<>(
                Summary.validity(metrics, primary, spec.repetitions(), m.perRepetition.size(), warmupCheck));
        validity.add(ValueChecks.duration(m.repetitionSeconds));
        RunChecks.lossDecreased(m.losses).ifPresent(validity::add);
        RunChecks.deviceNotShared(m.utilisationBeforeStart, m.foreignProcesses).ifPresent(validity::add);
        ThrottleCheck.judge(
                        m.devices,
                        ThrottleSpan.inWindow(m.throttleReasons),
                        ThrottleSpan.of(m.throttleReasons),
                        duration)
                .ifPresent(validity::add);
        List<Accelerator> accelerators = plan.accelerators();
        RunChecks.deviceMatches(
                        plan.point().getOrDefault("device_id", plan.point().get("expected_device")),
                        accelerators.isEmpty() ? null : accelerators.get(0).deviceId())
                .ifPresent(validity::add);
        stream.emit(new RunCompleted(runId, metrics, validity, duration));
        metrics.stream()
                .filter(x -> x.name().equals(primary))
                .findFirst()
                .ifPresent(x -> progress.line(String.format(
                        Locale.ROOT,
                        "%s: %s mean %s %s (95%% CI %s..%s, cv %.1f%%, n=%d)",
                        (plan.label() + " " + plan.pointText()).strip(),
                        primary,
                        format(x.statistics().mean()),
                        x.unit(),
                        format(x.statistics().ci95Low()),
                        format(x.statistics().ci95High()),
                        x.statistics().cv() * 100,
                        x.statistics().n())));
        return new RunOutcome(runId, plan.point(), RunOutcome.Status.COMPLETED, metrics, null);
    }

    private static ValidityCheck warmupCheck(Plan plan, Measurement m) {
        if (plan.shipped()) {
            return WarmupCheck.separated();
        }
        if (JobSpec.WARMUP_DECLARED.equals(plan.warmupHandling())) {
            return WarmupCheck.declared();
        }
        if (!plan.verifying()) {
            return WarmupCheck.notSeparated();
        }
        return m.notVerified != null
                ? WarmupCheck.notVerified(m.notVerified)
                : WarmupCheck.verified(plan.spec().warmupSteps(), m.verifiedSteps, m.perRepetition.size());
    }

    private RunOutcome fail(
            EventSink.StreamWriter stream,
            UUID runId,
            Map<String, String> point,
            String phase,
            Integer exitCode,
            String reason,
            String tail,
            String label) {
        stream.emit(new RunFailed(
                runId,
                phase,
                exitCode,
                clip(reason, Limits.MAX_TEXT_CHARS),
                tail == null ? null : clipTail(tail, Limits.MAX_TEXT_CHARS)));
        progress.line(label + " failed in " + phase + ": " + reason);
        return new RunOutcome(runId, point, RunOutcome.Status.FAILED, List.of(), reason);
    }

    private void emitSeries(
            EventSink.StreamWriter stream, UUID runId, SeriesKind kind, String unit, List<Sample> samples) {
        for (int i = 0; i < samples.size(); i += SAMPLES_PER_EVENT) {
            stream.emit(new MetricSampled(
                    runId, kind, unit, samples.subList(i, Math.min(samples.size(), i + SAMPLES_PER_EVENT))));
        }
    }

    private OutputParser parser(JobDefinition job) {
        String format = job.spec().parserOrDefault();
        if ("regex".equals(format)) {
            return new RegexParser(job.regexTemplates());
        }
        return Parsers.byFormat(format).orElseThrow(() -> new JobSpecException("parser", "unknown format " + format));
    }

    private static String primaryMetric(ParseResult parsed, List<ParsedMetric> found, Optional<String> required) {
        if (required.isPresent()) {
            return parsed.metric(required.get()).isPresent() ? required.get() : null;
        }
        return found.isEmpty() ? null : found.get(0).name();
    }

    private static Optional<ParsedMetric> metric(List<ParsedMetric> metrics, String name) {
        return metrics.stream().filter(m -> m.name().equals(name)).reduce((a, b) -> b);
    }

    /**
     * The agent's figures from the step log first (its throughput is then the run's primary metric), then the tool's
     * other metrics; a tool's metric of the same name, which may include the warm-up, gives way.
     */
    static List<ParsedMetric> withStepLog(List<ParsedMetric> fromLog, List<ParsedMetric> tool) {
        Set<String> names = fromLog.stream().map(ParsedMetric::name).collect(Collectors.toSet());
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
        return List.of(new Accelerator(
                a.vendor(),
                a.model(),
                a.deviceId(),
                a.memoryBytes(),
                perNode,
                perNode * nodes,
                a.interconnect(),
                a.driver(),
                a.firmware(),
                a.runtime()));
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
            this.every = progressEverySteps > 0
                    ? progressEverySteps
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
                stream.emit(new RunProgress(
                        runId,
                        repetition,
                        n,
                        Math.max(total, n),
                        "measure",
                        "step " + n
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
        return String.format(Locale.ROOT, v >= 100 ? "%.1f" : "%.3f", v);
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
        SortedMap<String, String> map() {
            SortedMap<String, String> m = new TreeMap<>();
            point.forEach((k, v) -> {
                if (!fixed.contains(k)) {
                    m.put(clip(k, 128), clip(v, Limits.MAX_STRING_CHARS));
                }
            });
            return m;
        }
    }
}
