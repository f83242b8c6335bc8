package dev.podium.agent.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.support.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AutoParserTest {

    @ParameterizedTest
    @CsvSource({
        "hf-trainer-log.txt, hf-trainer",
        "hf-trainer-long-run.txt, hf-trainer",
        "all_results.json, hf-trainer",
        "optimum-habana-train-log.txt, hf-trainer",
        "optimum-habana-generation-stats.txt, hf-trainer",
        "benchmark_report.json, optimum-benchmark",
        "mlperf_log_summary.txt, mlperf",
        "mllog.txt, mlperf",
        "reference-output.txt, jsonl",
        "vllm-serving-result.txt, vllm-serving",
        "vllm-serving-result.json, vllm-serving",
        "sglang-serving-result.txt, sglang-serving",
        "sglang-serving-result.jsonl, sglang-serving",
        "genai-perf-export.json, genai-perf",
        "aiperf-export.json, genai-perf",
        "hostile/hf-hostile-keys.txt, hf-trainer",
        "hostile/hf-results-nan.json, hf-trainer",
        "hostile/serving-hostile.txt, vllm-serving",
        "hostile/serving-hostile.json, vllm-serving",
        "hostile/genai-perf-hostile.json, genai-perf",
        "hostile/optimum-garbled.json, optimum-benchmark"
    })
    void recognisesEachRecordedSampleAndParsesItAsItsOwnParserDoes(String sample, String format) {
        String text = Resources.text("parse/" + sample);
        assertThat(AutoParser.detect(text)).hasValue(format);
        ParseResult auto = new AutoParser().parse(text);
        ParseResult own = Parsers.byFormat(format).orElseThrow().parse(text);
        assertThat(auto.format()).isEqualTo(format);
        assertThat(auto.metrics()).isEqualTo(own.metrics());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "hello\nworld\n",
                "[1, 2, 3]",
                "{\"a\": \"b\"}",
                "{{{{",
                "null",
                "{'loss': 1.0}",
                "=== Serving Benchmark Result"
            })
    void outputOfNoKnownFormatGivesNoMetricAndSaysSo(String text) {
        assertThat(AutoParser.detect(text)).isEmpty();
        ParseResult r = new AutoParser().parse(text);
        assertThat(r.metrics()).isEmpty();
        assertThat(r.format()).isEqualTo("auto");
        assertThat(r.warnings()).singleElement().satisfies(w -> assertThat(w).contains("no known format"));
    }

    @org.junit.jupiter.api.Test
    void enormousBlankOrRepetitiveOutputIsRecognisedAsNothing() {
        assertThat(AutoParser.detect(" \n".repeat(2_000_000))).isEmpty();
        assertThat(AutoParser.detect("=".repeat(3_000_000))).isEmpty();
        assertThat(AutoParser.detect("{\"podium\" ".repeat(200_000))).isEmpty();
    }
}
