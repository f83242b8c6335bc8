package dev.podium.agent.cli;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.job.ReportSubmitter;
import dev.podium.agent.job.RunOutcome;
import dev.podium.agent.parse.OutputParser;
import dev.podium.agent.parse.Parsers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "submit",
        mixinStandardHelpOptions = true,
        description = {
            "Publish existing benchmark outputs as one run (each FILE is one repetition), as CI pipelines upload "
                    + "results. The host fingerprint is this host's; say what ran with the options."
        })
public final class SubmitCommand implements Callable<Integer> {

    @Option(
            names = "--format",
            required = true,
            paramLabel = "FORMAT",
            description =
                    "auto, hf-trainer, optimum-benchmark, mlperf, jsonl, vllm-serving, sglang-serving, genai-perf or regex.")
    String format;

    @Option(names = "--regex", paramLabel = "NAME=PATTERN", description = "Templates for --format regex.")
    List<String> regex = new ArrayList<>();

    @Option(
            names = "--benchmark",
            required = true,
            paramLabel = "NAME",
            description = "Benchmark name, e.g. bridgetower-finetune.")
    String benchmark;

    @Option(names = "--benchmark-version", paramLabel = "V")
    String version;

    @Option(names = "--scenario", paramLabel = "S")
    String scenario;

    @Option(names = "--model", paramLabel = "M")
    String model;

    @Option(names = "--precision", paramLabel = "P")
    String precision;

    @Option(names = "--batch-size", paramLabel = "N", description = "Per-device batch size.")
    Integer batchSize;

    @Option(
            names = "--devices",
            paramLabel = "N",
            defaultValue = "0",
            description = "Accelerators used (default: all detected).")
    int devices;

    @Option(
            names = "--param",
            paramLabel = "NAME=VALUE",
            description = "Extra parameters of the comparison key, e.g. dataloader_num_workers=2.")
    Map<String, String> params = new LinkedHashMap<>();

    @Parameters(arity = "1..*", paramLabel = "FILE")
    List<Path> files;

    @Mixin
    AgentOptions options;

    @Override
    public Integer call() throws Exception {
        OutputParser parser = ParseCommand.parser(format, regex);
        if (parser == null) {
            return 2;
        }
        List<String> outputs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                System.err.println("podium-agent: " + f + " does not exist");
                return 2;
            }
            outputs.add(Parsers.read(f));
            names.add(f.getFileName().toString());
        }
        var settings = options.settings();
        ToolRunner tools = new ToolRunner();
        Fingerprint fp = new HostDetector(tools).detect(new PythonProbe(PythonProbe.defaultPython(), tools));
        try (Publishing pub = new Publishing(settings, options.flushTimeoutSeconds, System.err)) {
            RunOutcome outcome = new ReportSubmitter(pub.sink, fp)
                    .submit(
                            parser,
                            outputs,
                            names,
                            new ReportSubmitter.Description(
                                    benchmark,
                                    version,
                                    scenario,
                                    model,
                                    precision,
                                    batchSize,
                                    devices,
                                    new TreeMap<>(params)));
            int pending = pub.flush();
            if (outcome.status() == RunOutcome.Status.COMPLETED) {
                System.err.println("run " + outcome.runId() + " submitted with "
                        + outcome.metrics().size() + " metrics"
                        + (pending == 0 ? "" : "; " + pending + " events pending in the journal"));
                return 0;
            }
            System.err.println("run " + outcome.runId() + " failed: " + outcome.reason());
            return 1;
        }
    }
}
