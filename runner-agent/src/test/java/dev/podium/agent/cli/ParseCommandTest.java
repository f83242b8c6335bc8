package dev.podium.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.support.Resources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ParseCommandTest {

    record Result(int exit, String out) {}

    private static Result run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            return new Result(AgentMain.execute(args), buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    private static JsonNode metric(Result r, String name) throws Exception {
        for (JsonNode m : new ObjectMapper().readTree(r.out()).path("metrics")) {
            if (m.path("name").asText().equals(name)) {
                return m;
            }
        }
        throw new AssertionError(name + " not in " + r.out());
    }

    @Test
    void printsNameValueUnitForEachFormat() throws Exception {
        Result hf = run(
                "parse",
                "--format",
                "hf-trainer",
                Resources.path("parse/hf-trainer-log.txt").toString());
        assertThat(hf.exit()).isZero();
        assertThat(metric(hf, "train_samples_per_second").path("value").asDouble())
                .isEqualTo(35.158);
        assertThat(metric(hf, "train_samples_per_second").path("unit").asText()).isEqualTo("samples/s");
        Result ob = run(
                "parse",
                "--format",
                "optimum-benchmark",
                Resources.path("parse/benchmark_report.json").toString());
        assertThat(metric(ob, "forward.latency.mean").path("direction").asText())
                .isEqualTo("lower");
        Result ml = run(
                "parse", "--format", "mlperf", Resources.path("parse/mllog.txt").toString());
        assertThat(metric(ml, "time_to_train").path("unit").asText()).isEqualTo("s");
        Result jl = run(
                "parse",
                "--format",
                "jsonl",
                Resources.path("parse/reference-output.txt").toString());
        assertThat(metric(jl, "train_samples_per_second").path("value").asDouble())
                .isPositive();
        Result rx = run(
                "parse",
                "--format",
                "regex",
                "--regex",
                "total=Samples per second: ([0-9.]+)",
                Resources.path("parse/mlperf_log_summary.txt").toString());
        assertThat(metric(rx, "total").path("value").asDouble()).isEqualTo(2351.95);
    }

    @Test
    void hostileOutputGivesExitOneAndWarningsNotACrash() throws Exception {
        Result r = run(
                "parse",
                "--format",
                "hf-trainer",
                Resources.path("parse/hostile/hf-hostile.txt").toString());
        assertThat(r.exit()).isEqualTo(1);
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.path("metrics"))
                .allSatisfy(m -> assertThat(m.path("value").isNumber()).isTrue());
        assertThat(json.path("warnings").size()).isPositive();
    }

    @Test
    void unknownFormatAndMissingFileAreUsageErrors() {
        assertThat(run("parse", "--format", "xml", "x").exit()).isEqualTo(2);
        assertThat(run("parse", "--format", "jsonl", "/nonexistent/file").exit())
                .isEqualTo(2);
    }

    @Test
    void everyCommandHasHelp() {
        for (String cmd : new String[] {"detect", "run", "submit", "parse", "daemon", "journal"}) {
            Result r = run(cmd, "--help");
            assertThat(r.exit()).as(cmd).isZero();
            assertThat(r.out()).as(cmd).contains("Usage: podium-agent " + cmd);
        }
    }

    @Test
    void formatAutoIsTheDefaultAndNamesTheFormatItFound() throws Exception {
        Result r = run("parse", Resources.path("parse/vllm-serving-result.txt").toString());
        assertThat(r.exit()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).path("format").asText()).isEqualTo("vllm-serving");
        assertThat(metric(r, "ttft_p99_ms").path("direction").asText()).isEqualTo("lower");
        Result g = run(
                "parse",
                "--format",
                "auto",
                Resources.path("parse/genai-perf-export.json").toString());
        assertThat(new ObjectMapper().readTree(g.out()).path("format").asText()).isEqualTo("genai-perf");
    }
}
