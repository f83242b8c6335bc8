package dev.podium.agent.cli;

import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobRunner;
import dev.podium.agent.job.JobSpecReader;
import dev.podium.agent.job.Progress;
import dev.podium.agent.job.RunOutcome;
import dev.podium.agent.workload.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run a job spec (YAML) on this host and publish its events: one run per point of its matrix.",
            "Ctrl-C cancels the running job (RunCancelled is published)."
        })
public final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB.yaml", description = "The job spec.")
    Path jobFile;

    @Mixin
    AgentOptions options;

    @Option(
            names = "--python",
            paramLabel = "PATH",
            description =
                    "Python interpreter for the reference workload and the software probe, unless the job sets `python` "
                            + "(default: $PODIUM_PYTHON, /usr/bin/python3 or python3).")
    String python;

    @Option(
            names = "--sample-interval-ms",
            defaultValue = "1000",
            paramLabel = "MS",
            description = "Interval of CPU, memory and accelerator sampling (default: ${DEFAULT-VALUE}).")
    long sampleIntervalMillis;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(jobFile)) {
            System.err.println("podium-agent: job spec " + jobFile + " does not exist");
            return 2;
        }
        JobDefinition job = new JobSpecReader().read(Files.readString(jobFile));
        AgentSettings settings = options.settings();
        Isolation isolation = options.isolation();
        String py = python != null ? python : PythonProbe.defaultPython();
        ToolRunner tools = new ToolRunner();
        Progress progress = Progress.forConsole();
        progress.line(isolation.describe());
        progress.line("detecting host...");
        // No probe here: the runner probes the interpreter when it runs the reference workload.
        Fingerprint fp = new HostDetector(tools).detect(null);
        try (Publishing pub = new Publishing(settings, options.flushTimeoutSeconds, System.err)) {
            JobRunner runner = new JobRunner(pub.sink, fp, options.workDir(), py, progress, tools, sampleIntervalMillis)
                    .allowingEnvironment(options.allowedEnvironment())
                    .isolatedBy(isolation);
            CountDownLatch done = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                runner.cancel();
                try {
                    done.await(); // let RunCancelled reach the journal before the JVM exits
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            List<RunOutcome> outcomes;
            try {
                outcomes = runner.run(job);
            } finally {
                done.countDown();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
            int pending = pub.flush();
            long completed = outcomes.stream()
                    .filter(o -> o.status() == RunOutcome.Status.COMPLETED)
                    .count();
            progress.line(completed + " of " + outcomes.size() + " runs completed; "
                    + (pending == 0 ? "all events acknowledged by Kafka" : pending + " events pending in the journal"));
            return completed == outcomes.size() ? 0 : 1;
        }
    }
}
