package dev.podium.events.testing;

import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.admin.AgentKeyIssued;
import dev.podium.events.admin.AgentKeyRevoked;
import dev.podium.events.admin.CatalogEntryHidden;
import dev.podium.events.admin.CatalogKind;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Host;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Provenance;
import dev.podium.events.model.Sample;
import dev.podium.events.model.Scope;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.Software;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.model.Workload;
import dev.podium.events.published.ClaimFile;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.Precision;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.ValueChecks;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Valid, realistic events for tests in every module: one envelope per {@link EventType} ({@link #all()}, {@link #of}), and
 * builders for streams of result events. Everything is deterministic: ids are derived from fixed names, so two calls give
 * equal envelopes and equal bytes.
 */
public final class SampleEvents {

    /** The instant sample events happen at unless a builder is given another. */
    public static final Instant AT = Instant.parse("2026-01-15T10:00:00Z");

    public static final String AGENT_ID = "gaudi2-host-1";
    public static final UUID BOOT_ID = uuid("boot-1");
    public static final UUID RUN_ID = uuid("run-1");
    public static final UUID JOB_ID = uuid("job-1");
    public static final UUID CAMPAIGN_ID = uuid("campaign-1");
    public static final UUID ADMIN_STREAM_ID = uuid("admin-1");
    public static final String POOL = "gaudi2";
    public static final String DEVICE_ID = "intel-gaudi2";
    public static final String ACTOR = "ops-admin";
    public static final String AGENT_VERSION = "0.1.0";
    public static final String PUBLISHED_SOURCE = "hf-habana-bridgetower";

    /** The metric of the reference workload and of the BridgeTower figures. */
    public static final String THROUGHPUT_METRIC = "train_samples_per_second";

    public static final String THROUGHPUT_UNIT = "samples/s";
    /** How long each repetition of {@link #runCompleted} ran. */
    public static final double REPETITION_SECONDS = 42.5;

    /** The reference workload's benchmark name (the PyTorch fine-tuning workload the agent ships). */
    public static final String REFERENCE_BENCHMARK = "reference-finetune";

    private SampleEvents() {}

    /** One valid envelope of every type, in {@link EventType} order. */
    public static List<Envelope> all() {
        return List.copyOf(byType().values());
    }

    /** The sample envelope of one type. */
    public static Envelope of(EventType type) {
        return byType().get(type);
    }

    private static Map<EventType, Envelope> byType() {
        Map<EventType, Envelope> m = new EnumMap<>(EventType.class);
        m.put(EventType.AgentRegistered, agentRegistered(AGENT_ID, BOOT_ID, DEVICE_ID, AT));
        m.put(EventType.RunStarted, runStarted(RUN_ID, AGENT_ID, DEVICE_ID, referenceKey(0), AT));
        m.put(EventType.RunProgress, runProgress(RUN_ID, AGENT_ID, 2, 1, 50, 200));
        m.put(
                EventType.MetricSampled,
                metricSampled(
                        RUN_ID,
                        AGENT_ID,
                        3,
                        SeriesKind.STEP_THROUGHPUT,
                        "samples/s",
                        List.of(
                                new Sample(1.0, 598.2, 0, null),
                                new Sample(2.0, 603.9, 0, null),
                                new Sample(3.0, 601.1, 0, null))));
        m.put(EventType.RunCompleted, runCompleted(RUN_ID, AGENT_ID, 4, List.of(601.1, 600.4, 603.0)));
        m.put(EventType.RunFailed, runFailed(uuid("run-failed"), AGENT_ID, 2, "measure", "exit code 137 (killed)"));
        m.put(
                EventType.RunCancelled,
                envelope(
                        StreamId.run(uuid("run-cancelled")),
                        2,
                        AGENT_ID,
                        AT.plusSeconds(30),
                        new RunCancelled(uuid("run-cancelled"), "JobCancelled by ops-admin")));
        m.put(EventType.JobClaimed, jobClaimed(uuid("run-claim"), JOB_ID, AGENT_ID, POOL, AT));
        m.put(
                EventType.CampaignCreated,
                envelope(
                        StreamId.campaign(CAMPAIGN_ID),
                        1,
                        null,
                        AT,
                        new CampaignCreated(
                                CAMPAIGN_ID,
                                "nightly reference",
                                jobSpec(),
                                List.of("gaudi2", "h100"),
                                "0 2 * * *",
                                ACTOR)));
        m.put(EventType.JobRequested, jobRequested(JOB_ID, POOL, AT));
        m.put(EventType.JobAssigned, jobAssigned(JOB_ID, uuid("run-claim"), AGENT_ID, 1, 2, AT.plusSeconds(5)));
        m.put(
                EventType.JobLeaseExpired,
                envelope(
                        StreamId.job(JOB_ID),
                        3,
                        null,
                        AT.plusSeconds(600),
                        new JobLeaseExpired(JOB_ID, uuid("run-claim"), AGENT_ID, 1)));
        m.put(
                EventType.JobCancelled,
                envelope(
                        StreamId.job(uuid("job-2")),
                        2,
                        null,
                        AT.plusSeconds(60),
                        new JobCancelled(uuid("job-2"), "wrong pool", ACTOR)));
        m.put(
                EventType.ResultRetracted,
                envelope(
                        StreamId.admin(ADMIN_STREAM_ID),
                        1,
                        null,
                        AT.plusSeconds(3600),
                        new ResultRetracted(RUN_ID, "thermal throttling seen in the power series", ACTOR)));
        m.put(
                EventType.AgentKeyIssued,
                envelope(
                        StreamId.admin(uuid("admin-key-1")),
                        1,
                        null,
                        AT,
                        new AgentKeyIssued(AGENT_ID, "key-gaudi2-host-1-1", ACTOR)));
        m.put(
                EventType.AgentKeyRevoked,
                envelope(
                        StreamId.admin(uuid("admin-key-2")),
                        1,
                        null,
                        AT.plusSeconds(7200),
                        new AgentKeyRevoked(AGENT_ID, "key-gaudi2-host-1-1", "rotated", ACTOR)));
        m.put(
                EventType.CatalogEntryHidden,
                envelope(
                        StreamId.admin(uuid("admin-hide-1")),
                        1,
                        null,
                        AT.plusSeconds(7300),
                        new CatalogEntryHidden(
                                CatalogKind.DEVICE, "acme-warp-9000", true, "no such accelerator exists", ACTOR)));
        m.put(EventType.PublishedClaimImported, publishedClaimImported(gaudi2Workers0Claim(), 1));
        return m;
    }

    // ---- comparison keys ------------------------------------------------------------------------------------------

    /** The key of the shipped reference workload at one {@code dataloader_num_workers} value, on one device. */
    public static ComparisonKey referenceKey(int dataloaderWorkers) {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader_num_workers", Integer.toString(dataloaderWorkers));
        return new ComparisonKey(
                REFERENCE_BENCHMARK, "1", "training", "tiny-transformer-classifier", "fp32", 32, 1, 128, extra);
    }

    /** The key of the published BridgeTower figures (8 devices); {@code dataloader} is "default" or "mediapipe". */
    public static ComparisonKey bridgeTowerKey(int dataloaderWorkers, String dataloader) {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader", dataloader);
        extra.put("dataloader_num_workers", Integer.toString(dataloaderWorkers));
        return new ComparisonKey(
                "bridgetower-finetune",
                null,
                null,
                "BridgeTower/bridgetower-large-itm-mlm-itc",
                null,
                null,
                8,
                null,
                extra);
    }

    // ---- run streams ----------------------------------------------------------------------------------------------

    /**
     * A complete run stream as an agent writes it: RunStarted (seq 1), one MetricSampled of step throughput (seq 2) and
     * RunCompleted with {@code throughputs} as per-repetition values (seq 3).
     */
    public static List<Envelope> completedRun(
            UUID runId, String agentId, String deviceId, ComparisonKey key, Instant at, List<Double> throughputs) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < throughputs.size(); i++) {
            samples.add(new Sample(i + 1.0, throughputs.get(i), i, null));
        }
        return List.of(
                runStarted(runId, agentId, deviceId, key, at),
                metricSampled(runId, agentId, 2, SeriesKind.STEP_THROUGHPUT, THROUGHPUT_UNIT, samples),
                runCompleted(runId, agentId, 3, throughputs));
    }

    /** RunStarted (seq 1) on {@code run/<runId>} for a self-started run of {@code key} on {@code deviceId}. */
    public static Envelope runStarted(UUID runId, String agentId, String deviceId, ComparisonKey key, Instant at) {
        return envelope(
                StreamId.run(runId),
                1,
                agentId,
                at,
                new RunStarted(
                        runId,
                        null,
                        null,
                        host(agentId),
                        List.of(accelerator(deviceId, key.totalAccelerators() == null ? 1 : key.totalAccelerators())),
                        software(),
                        workload(key),
                        key,
                        3,
                        10,
                        provenance(agentId),
                        null));
    }

    /** RunStarted (seq {@code seq}) for a run that executes a granted job under {@code leaseEpoch}. */
    public static Envelope runStartedForJob(
            UUID runId,
            UUID jobId,
            int leaseEpoch,
            long seq,
            String agentId,
            String deviceId,
            ComparisonKey key,
            Instant at) {
        return envelope(
                StreamId.run(runId),
                seq,
                agentId,
                at,
                new RunStarted(
                        runId,
                        jobId,
                        leaseEpoch,
                        host(agentId),
                        List.of(accelerator(deviceId, key.totalAccelerators() == null ? 1 : key.totalAccelerators())),
                        software(),
                        workload(key),
                        key,
                        3,
                        10,
                        provenance(agentId),
                        null));
    }

    /**
     * RunCompleted with one throughput metric ({@value #THROUGHPUT_METRIC}) whose raw values are {@code throughputs}, one
     * per repetition of 42.5 s out of 3 wanted, and the value checks an agent writes for them.
     */
    public static Envelope runCompleted(UUID runId, String agentId, long seq, List<Double> throughputs) {
        Metric metric = throughputMetric(throughputs);
        return envelope(
                StreamId.run(runId),
                seq,
                agentId,
                AT.plusSeconds(60 * seq),
                new RunCompleted(
                        runId,
                        List.of(metric),
                        valueChecks(metric, 3, Collections.nCopies(throughputs.size(), REPETITION_SECONDS)),
                        REPETITION_SECONDS * throughputs.size()));
    }

    /** The checks of a run's values an agent writes: repetitions, cv, positive and finite values, durations. */
    public static List<ValidityCheck> valueChecks(Metric primary, int wanted, List<Double> repetitionSeconds) {
        return List.of(
                ValueChecks.repetitions(primary.values().size(), wanted),
                ValueChecks.cv(primary),
                ValueChecks.positiveFinite(primary),
                ValueChecks.duration(repetitionSeconds));
    }

    /** The throughput metric with raw values and their statistics. */
    public static Metric throughputMetric(List<Double> throughputs) {
        return new Metric(
                THROUGHPUT_METRIC,
                THROUGHPUT_UNIT,
                Direction.HIGHER_IS_BETTER,
                Scope.SYSTEM,
                true,
                List.copyOf(throughputs),
                Statistics.of(throughputs));
    }

    public static Envelope runProgress(
            UUID runId, String agentId, long seq, int repetition, long step, long totalSteps) {
        return envelope(
                StreamId.run(runId),
                seq,
                agentId,
                AT.plusSeconds(seq),
                new RunProgress(runId, repetition, step, totalSteps, "measure", "step " + step + " of " + totalSteps));
    }

    public static Envelope metricSampled(
            UUID runId, String agentId, long seq, SeriesKind series, String unit, List<Sample> samples) {
        return envelope(
                StreamId.run(runId),
                seq,
                agentId,
                AT.plusSeconds(seq),
                new MetricSampled(runId, series, unit, List.copyOf(samples)));
    }

    public static Envelope runFailed(UUID runId, String agentId, long seq, String phase, String reason) {
        return envelope(
                StreamId.run(runId),
                seq,
                agentId,
                AT.plusSeconds(seq),
                new RunFailed(runId, phase, 137, reason, "RuntimeError: out of memory\n"));
    }

    public static Envelope runCancelled(UUID runId, String agentId, long seq, String reason) {
        return envelope(StreamId.run(runId), seq, agentId, AT.plusSeconds(seq), new RunCancelled(runId, reason));
    }

    /** JobClaimed as the first event (seq 1) of a new run stream. */
    public static Envelope jobClaimed(UUID runId, UUID jobId, String agentId, String pool, Instant at) {
        return envelope(StreamId.run(runId), 1, agentId, at, new JobClaimed(runId, jobId, agentId, pool));
    }

    // ---- agent, job and command-side events -----------------------------------------------------------------------

    /** AgentRegistered (seq 1) on {@code agent/<agentId>/<bootId>} for a host with 8 devices of {@code deviceId}. */
    public static Envelope agentRegistered(String agentId, UUID bootId, String deviceId, Instant at) {
        return envelope(
                StreamId.agent(agentId, bootId),
                1,
                agentId,
                at,
                new AgentRegistered(
                        agentId,
                        bootId,
                        POOL,
                        AGENT_VERSION,
                        host(agentId),
                        List.of(accelerator(deviceId, 8)),
                        software()));
    }

    /** JobRequested (seq 1) on {@code job/<jobId>}, written by the command side (no agent id). */
    public static Envelope jobRequested(UUID jobId, String pool, Instant at) {
        return envelope(StreamId.job(jobId), 1, null, at, new JobRequested(jobId, CAMPAIGN_ID, pool, jobSpec()));
    }

    public static Envelope jobAssigned(UUID jobId, UUID runId, String agentId, int leaseEpoch, long seq, Instant at) {
        return envelope(
                StreamId.job(jobId),
                seq,
                null,
                at,
                new JobAssigned(jobId, runId, agentId, leaseEpoch, at.plusSeconds(300)));
    }

    /** PublishedClaimImported on {@code published/<claim source>}, with the claim's derived (UUIDv5) event id. */
    public static Envelope publishedClaimImported(PublishedClaim claim, long seq) {
        return ClaimFile.envelope(claim, seq, ACTOR, AT);
    }

    /** The figure "Intel Gaudi 2 HPU, dataloader_num_workers=0: 601.5 samples/s" of the BridgeTower table. */
    public static PublishedClaim gaudi2Workers0Claim() {
        return new PublishedClaim(
                "gaudi2-workers0",
                PUBLISHED_SOURCE,
                "BridgeTower fine-tuning on Gaudi 2",
                "https://huggingface.co/blog/bridgetower",
                "Intel Gaudi 2 HPU | dataloader_num_workers=0 | 601.5",
                "intel-gaudi2",
                "Intel Gaudi 2 HPU",
                8,
                bridgeTowerKey(0, "default"),
                THROUGHPUT_METRIC,
                THROUGHPUT_UNIT,
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Exact(601.5),
                new Precision(1, false),
                null);
    }

    /** The claim "Gaudi 2 vs H100 at workers=0: 1.79x", computed from two figures of the same source. */
    public static PublishedClaim gaudi2VsH100Workers0Claim() {
        return new PublishedClaim(
                "ratio-gaudi2-vs-h100-workers0",
                PUBLISHED_SOURCE,
                null,
                null,
                "Gaudi 2 vs H100 at workers=0: 1.79x",
                "intel-gaudi2",
                "Intel Gaudi 2 HPU",
                8,
                bridgeTowerKey(0, "default"),
                THROUGHPUT_METRIC,
                "x",
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Exact(1.79),
                new Precision(2, false),
                new RatioBasis("NVIDIA H100 GPU", "gaudi2-workers0", "h100-workers0", RatioBasis.RatioForm.TIMES));
    }

    // ---- parts ----------------------------------------------------------------------------------------------------

    public static Host host(String hostname) {
        return new Host(
                hostname,
                "4f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f",
                "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
                2,
                80,
                160,
                1_081_000_000_000L,
                "Ubuntu 22.04.4 LTS",
                "5.15.0-107-generic",
                1);
    }

    /**
     * An accelerator entry for a canonical device id (see {@link DeviceAliases}); an id the table does not know is kept
     * with a generic vendor and model.
     */
    public static Accelerator accelerator(String deviceId, int total) {
        DeviceModel d = DeviceAliases.byId(deviceId).orElse(new DeviceModel(deviceId, "unknown", deviceId, false));
        String runtime = switch (d.vendor()) {
            case "Intel" -> "SynapseAI 1.16.0";
            case "AMD" -> "ROCm 6.1";
            case "NVIDIA" -> "CUDA 12.4";
            default -> null;
        };
        java.util.regex.Matcher gb = java.util.regex.Pattern.compile("(\\d+)gb").matcher(d.id());
        long memoryGb = gb.find() ? Long.parseLong(gb.group(1)) : "intel-gaudi2".equals(d.id()) ? 96 : 64;
        return new Accelerator(
                d.vendor(),
                d.label(),
                d.id(),
                memoryGb * 1024 * 1024 * 1024,
                Math.min(total, 8),
                total,
                "RoCE v2",
                "1.16.0",
                "hl-1.16.0-fw-50.1.0",
                runtime);
    }

    public static Software software() {
        TreeMap<String, String> libraries = new TreeMap<>();
        libraries.put("transformers", "4.40.2");
        libraries.put("optimum-habana", "1.11.1");
        return new Software(
                "pytorch",
                "2.2.2",
                "3.10.12",
                libraries,
                "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "3c1e2a7");
    }

    public static Workload workload(ComparisonKey key) {
        TreeMap<String, String> parameters = new TreeMap<>(key.extra());
        return new Workload(
                key.benchmark(),
                key.benchmarkVersion(),
                key.scenario(),
                key.model(),
                "jxie/flickr8k",
                parameters,
                "python run_example.py --token=[REDACTED] --dataloader_num_workers "
                        + key.extra().getOrDefault("dataloader_num_workers", "0"));
    }

    public static Provenance provenance(String agentId) {
        return new Provenance(agentId, AGENT_VERSION, "hf-trainer");
    }

    public static JobSpec jobSpec() {
        TreeMap<String, String> parameters = new TreeMap<>();
        parameters.put("per_device_train_batch_size", "32");
        TreeMap<String, List<String>> matrix = new TreeMap<>();
        matrix.put("dataloader_num_workers", List.of("0", "1", "2"));
        TreeMap<String, String> environment = new TreeMap<>();
        environment.put("PT_HPU_LAZY_MODE", "1");
        return new JobSpec(
                REFERENCE_BENCHMARK, "reference", null, null, parameters, matrix, 3, 10, 3600, environment, 1, 1, POOL);
    }

    // ---- envelopes and ids ----------------------------------------------------------------------------------------

    /** An envelope whose event id is derived from the stream and seq, so equal arguments give equal envelopes. */
    public static Envelope envelope(StreamId stream, long seq, String agentId, Instant at, Event payload) {
        return Envelope.of(uuid(stream.value() + "#" + seq), stream, seq, agentId, at, payload);
    }

    /** A name-based UUID (version 3) of {@code name}: stable test ids without randomness. */
    public static UUID uuid(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }
}
