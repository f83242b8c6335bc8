package dev.podium.agent.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.podium.agent.support.Resources;
import dev.podium.events.model.Direction;
import dev.podium.events.model.WorkPerUnit;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OtherParsersTest {

    @Test
    void jsonLinesProtocolReadsTheReferenceWorkloadsRealOutput() {
        ParseResult r = new JsonLinesParser().parse(Resources.text("parse/reference-output.txt"));
        assertThat(r.metric("train_samples_per_second").get().value()).isPositive();
        assertThat(r.metric("train_loss").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.steps()).hasSize(6);
        assertThat(r.steps().stream().filter(StepSample::warmup)).hasSize(2);
        assertThat(r.info()).containsEntry("device", "cpu").containsKey("torch");
    }

    @Test
    void jsonLinesComputesThroughputFromMeasuredStepsWhenNoMetricLineSaysIt() {
        String out = """
                {"podium": 1, "type": "step", "step": 1, "warmup": true, "samples": 8, "seconds": 10.0}
                {"podium": 1, "type": "step", "step": 2, "warmup": false, "samples": 8, "seconds": 0.5}
                {"podium": 1, "type": "step", "step": 3, "warmup": false, "samples": 8, "seconds": 0.3}
                """;
        assertThat(new JsonLinesParser()
                        .parse(out)
                        .metric("train_samples_per_second")
                        .get()
                        .value())
                .isEqualTo(20.0);
    }

    @Test
    void jsonLinesKeepsTheWorkPerUnitAMetricLineStatesAndRefusesFiguresThatCannotBe() {
        String out = """
                {"podium": 1, "type": "step", "step": 1, "warmup": false, "samples": 8, "seconds": 0.5}
                {"podium": 1, "type": "metric", "name": "train_samples_per_second", "value": 16, "flops_per_unit": 6e9}
                {"podium": 1, "type": "metric", "name": "tokens_per_second", "value": 5, "bytes_per_unit": 2.5e8}
                {"podium": 1, "type": "metric", "name": "lying", "value": 5, "flops_per_unit": -1, "bytes_per_unit": 1e300}
                {"podium": 1, "type": "metric", "name": "texty", "value": 5, "flops_per_unit": "6N"}
                """;
        ParseResult r = new JsonLinesParser().parse(out);
        assertThat(r.metric("train_samples_per_second").get().work())
                .isEqualTo(new WorkPerUnit(6e9, null, WorkPerUnit.Basis.DECLARED));
        assertThat(r.metric("train_samples_per_second").get().samples()).containsExactly(16.0);
        assertThat(r.metric("tokens_per_second").get().work().bytes()).isEqualTo(2.5e8);
        assertThat(r.metric("lying").get().work()).isNull();
        assertThat(r.metric("texty").get().work()).isNull();
        assertThat(r.warnings()).anyMatch(w -> w.contains("flops_per_unit -1.0 of lying"));
    }

    @Test
    void jsonLinesSurvivesGarbledAndHostileLines() {
        ParseResult r = new JsonLinesParser().parse(Resources.text("parse/hostile/jsonl-garbled.txt"));
        assertThat(r.metric("train_samples_per_second")).isEmpty(); // 1e999 is infinite
        assertThat(r.metric("x")).isEmpty(); // a string is not a value
        assertThat(r.steps()).isEmpty();
        assertThat(r.metrics())
                .singleElement()
                .satisfies(m -> assertThat(m.name()).matches("[A-Za-z0-9_.:/%-]+"));
        assertThat(r.warnings()).isNotEmpty();
    }

    @Test
    void optimumBenchmarkReportGivesLatencyThroughputAndMemory() {
        ParseResult r = new OptimumBenchmarkParser().parse(Resources.text("parse/benchmark_report.json"));
        assertThat(r.metric("forward.throughput").get().value()).isEqualTo(57.16624108437925);
        assertThat(r.metric("forward.throughput").get().unit()).isEqualTo("samples/s");
        assertThat(r.metric("forward.latency.mean").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.metric("forward.latency.p99")).isPresent();
        assertThat(r.metric("forward.memory.max_ram").get().unit()).isEqualTo("MB");
        assertThat(r.metric("forward.memory.max_global_vram")).isEmpty();
    }

    @Test
    void optimumBenchmarkGarbledReportGivesNothingButWarnings() {
        ParseResult r = new OptimumBenchmarkParser().parse(Resources.text("parse/hostile/optimum-garbled.json"));
        assertThat(r.metrics()).isEmpty();
        assertThat(r.warnings()).isNotEmpty();
        assertThat(new OptimumBenchmarkParser().parse("[1,2,3]").metrics()).isEmpty();
        assertThat(new OptimumBenchmarkParser().parse("[".repeat(10_000)).metrics())
                .isEmpty();
    }

    @Test
    void mlperfSummaryGivesSamplesPerSecondAndLatencies() {
        ParseResult r = new MlperfParser().parse(Resources.text("parse/mlperf_log_summary.txt"));
        assertThat(r.metric("samples_per_second").get().value()).isEqualTo(2351.95);
        assertThat(r.metric("samples_per_second").get().direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(r.metric("mean_latency_ns").get().unit()).isEqualTo("ns");
        assertThat(r.metric("mean_latency_ns").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.info()).containsEntry("result_is", "VALID").containsEntry("scenario", "Offline");
    }

    @Test
    void mllogGivesTimeToTrainAccuracyAndThroughput() {
        ParseResult r = new MlperfParser().parse(Resources.text("parse/mllog.txt"));
        assertThat(r.metric("time_to_train").get().value()).isEqualTo(1200.0);
        assertThat(r.metric("eval_accuracy").get().value()).isEqualTo(0.7593);
        assertThat(r.metric("throughput").get().value()).isEqualTo(2600.0);
    }

    /**
     * Long lines (up to the 16 KiB a line may have) with a run of spaces inside a value, or without a colon: the old line
     * pattern backtracked on them, seconds a line; the bound is a hang guard hundreds of times above a linear scan.
     */
    @Test
    void longLinesCostTheirLengthNotItsSquare() {
        String spaces = " ".repeat(16_000);
        String text =
                ("Mode: a" + spaces + "b\n").repeat(100) + (spaces + "x\n").repeat(100) + "Samples per second : 12.5\n";
        ParseResult r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> new MlperfParser().parse(text));
        assertThat(r.metric("samples_per_second").get().value()).isEqualTo(12.5);
    }

    @Test
    void mlperfGarbageIsHarmless() {
        ParseResult r = new MlperfParser()
                .parse(Parsers.decode(new byte[] {0, (byte) 0xff, (byte) 0xfe, 'x', '\n'})
                        + Resources.text("parse/hostile/mlperf-garbage.txt"));
        assertThat(r.metrics()).isEmpty();
    }

    @Test
    void regexTemplatesTakeTheLastMatchOrAnAggregate() {
        String out = "step 1 throughput=10.5 img/s\nstep 2 throughput=11.5 img/s\nfinal time: 42.0s\n";
        RegexParser p = new RegexParser(List.of(
                new RegexTemplate(
                        "tput",
                        Pattern.compile("throughput=(?<value>[0-9.]+)"),
                        "img/s",
                        Direction.HIGHER_IS_BETTER,
                        "mean"),
                new RegexTemplate(
                        "last_tput",
                        Pattern.compile("throughput=([0-9.]+)"),
                        "img/s",
                        Direction.HIGHER_IS_BETTER,
                        "last"),
                new RegexTemplate(
                        "missing", Pattern.compile("nothing=([0-9.]+)"), "1", Direction.HIGHER_IS_BETTER, "last")));
        ParseResult r = p.parse(out);
        assertThat(r.metric("tput").get().value()).isEqualTo(11.0);
        assertThat(r.metric("last_tput").get().value()).isEqualTo(11.5);
        assertThat(r.metric("missing")).isEmpty();
        assertThat(r.warnings()).anyMatch(w -> w.contains("missing"));
    }

    @Test
    void aSingleStepLineIsReadWhateverItsSpacingAndAnythingElseIsNot() {
        assertThat(JsonLinesParser.stepLine(
                        "{\"podium\":1,\"type\":\"step\",\"step\":4,\"samples\":8,\"seconds\":0.5}"))
                .hasValueSatisfying(s -> {
                    assertThat(s.step()).isEqualTo(4);
                    assertThat(s.samplesPerSecond()).isEqualTo(16.0);
                });
        assertThat(JsonLinesParser.stepLine("{\"podium\": 2, \"type\": \"step\", \"samples\": 8, \"seconds\": 0.5}"))
                .isEmpty();
        assertThat(JsonLinesParser.stepLine("{\"podium\": 1, \"type\": \"step\", \"samples\": 8, \"seconds\": 0}"))
                .isEmpty();
        assertThat(JsonLinesParser.stepLine("{\"podium\": 1, \"type\": \"metric\", \"name\": \"step\", \"value\": 1}"))
                .isEmpty();
        assertThat(JsonLinesParser.stepLine("{\"podium\": 1, \"type\": \"step\", \"step\": [[[["))
                .isEmpty();
        assertThat(JsonLinesParser.stepLine("step 3/10 loss 0.5")).isEmpty();
        assertThat(JsonLinesParser.stepLine(null)).isEmpty();
    }

    @Test
    void jsonLinesStepsGiveStepTimePercentilesAndThroughputSamples() {
        String out = """
                {"podium": 1, "type": "step", "step": 1, "warmup": true, "samples": 8, "seconds": 10.0}
                {"podium": 1, "type": "step", "step": 2, "warmup": false, "samples": 8, "seconds": 0.4}
                {"podium": 1, "type": "step", "step": 3, "warmup": false, "samples": 8, "seconds": 0.1}
                {"podium": 1, "type": "step", "step": 4, "warmup": false, "samples": 8, "seconds": 0.3}
                {"podium": 1, "type": "step", "step": 5, "warmup": false, "samples": 8, "seconds": 0.2}
                """;
        ParseResult r = new JsonLinesParser().parse(out);
        assertThat(r.metric("step_time_mean_ms").get().value())
                .isEqualTo(250.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("step_time_mean_ms").get().samples()).hasSize(4);
        assertThat(r.metric("step_time_p50_ms").get().value())
                .isEqualTo(250.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("step_time_p90_ms").get().value())
                .isEqualTo(370.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("step_time_p99_ms").get().value())
                .isEqualTo(397.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("step_time_p99_ms").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.metric("train_samples_per_second").get().samples()).containsExactly(20.0, 80.0, 8 / 0.3, 40.0);
    }
}
