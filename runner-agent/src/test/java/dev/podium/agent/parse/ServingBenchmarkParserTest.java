package dev.podium.agent.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.podium.agent.support.Resources;
import dev.podium.events.model.Direction;
import org.junit.jupiter.api.Test;

class ServingBenchmarkParserTest {

    private final ServingBenchmarkParser vllm = new ServingBenchmarkParser(ServingBenchmarkParser.VLLM);
    private final ServingBenchmarkParser sglang = new ServingBenchmarkParser(ServingBenchmarkParser.SGLANG);

    @Test
    void vllmResultBlockGivesThroughputsFirstAndLatencyPercentilesLowerIsBetter() {
        ParseResult r = vllm.parse(Resources.text("parse/vllm-serving-result.txt"));
        assertThat(r.metrics().get(0).name()).isEqualTo("output_token_throughput");
        assertThat(r.metric("output_token_throughput")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(2517.81);
            assertThat(m.unit()).isEqualTo("tokens/s");
            assertThat(m.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        });
        assertThat(r.metric("request_throughput").get().unit()).isEqualTo("req/s");
        assertThat(r.metric("total_token_throughput").get().value()).isEqualTo(5035.62);
        assertThat(r.metric("peak_output_token_throughput").get().value()).isEqualTo(2752.0);
        assertThat(r.metric("ttft_p99_ms")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(101.53);
            assertThat(m.unit()).isEqualTo("ms");
            assertThat(m.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        });
        assertThat(r.metric("ttft_p50_ms").get().value()).isEqualTo(58.90);
        assertThat(r.metric("tpot_mean_ms").get().value()).isEqualTo(6.29);
        assertThat(r.metric("itl_p99_ms").get().value()).isEqualTo(9.87);
        assertThat(r.metric("e2e_latency_p99_ms").get().value()).isEqualTo(6801.90);
        assertThat(r.metric("benchmark_duration").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.info())
                .containsEntry("max_concurrency", "16")
                .containsEntry("completed", "200")
                .containsEntry("failed", "0");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void vllmSavedResultGivesTheSameNamesAndThePerRequestLatencies() {
        ParseResult r = vllm.parse(Resources.text("parse/vllm-serving-result.json"));
        ParseResult printed = vllm.parse(Resources.text("parse/vllm-serving-result.txt"));
        assertThat(r.metrics().get(0).name()).isEqualTo("output_token_throughput");
        assertThat(r.metric("output_token_throughput").get().value()).isEqualTo(2517.812);
        assertThat(r.metric("ttft_std_ms").get().value()).isEqualTo(12.11);
        assertThat(r.metrics())
                .extracting(ParsedMetric::name)
                .containsAll(printed.metrics().stream().map(ParsedMetric::name).toList());
        assertThat(r.metric("e2e_latency_mean_ms").get().samples())
                .hasSize(200)
                .allSatisfy(v -> assertThat(v).isBetween(6200.0, 6800.0));
        assertThat(r.info()).containsEntry("request_rate", "inf").containsEntry("backend", "vllm");
    }

    @Test
    void failedRequestsOfADetailedResultAreLeftOutOfThePerRequestLatencies() {
        ParseResult r = vllm.parse(Resources.text("parse/vllm-serving-detailed-failed.json"));
        assertThat(r.metric("ttft_mean_ms").get().samples())
                .hasSize(6)
                .allSatisfy(v -> assertThat(v).isBetween(50.0, 80.0));
        assertThat(r.metric("e2e_latency_mean_ms").get().samples())
                .hasSize(6)
                .allSatisfy(v -> assertThat(v).isGreaterThan(6000.0));
        assertThat(r.metric("itl_mean_ms").get().samples()).hasSize(18);
        assertThat(r.warnings()).contains("2 failed requests left out of the per-request latencies");
    }

    @Test
    void sglangResultBlockGivesTheSameNamesAsVllm() {
        ParseResult r = sglang.parse(Resources.text("parse/sglang-serving-result.txt"));
        assertThat(r.format()).isEqualTo("sglang-serving");
        assertThat(r.metrics().get(0).name()).isEqualTo("output_token_throughput");
        assertThat(r.metric("output_token_throughput").get().value()).isEqualTo(2712.86);
        assertThat(r.metric("input_token_throughput").get().value()).isEqualTo(2712.86);
        assertThat(r.metric("e2e_latency_mean_ms").get().value()).isEqualTo(6012.44);
        assertThat(r.metric("e2e_latency_p50_ms").get().value()).isEqualTo(6001.87);
        assertThat(r.metric("itl_p95_ms").get().value()).isEqualTo(6.44);
        assertThat(r.metric("itl_max_ms").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.metric("ttft_p99_ms").get().value()).isEqualTo(140.33);
        assertThat(r.info())
                .containsEntry("backend", "sglang")
                .containsEntry("concurrency", "15.93")
                .containsEntry("max_concurrency", "16");
    }

    @Test
    void sglangOutputFileOfAppendedRunsGivesTheLastRunAndReadsPythonsInfinity() {
        ParseResult r = sglang.parse(Resources.text("parse/sglang-serving-result.jsonl"));
        assertThat(r.metric("output_token_throughput").get().value()).isEqualTo(2712.86);
        assertThat(r.metric("ttft_p99_ms").get().value()).isEqualTo(140.33);
        assertThat(r.metric("tpot_p99_ms").get().value()).isEqualTo(6.1);
        assertThat(r.metric("e2e_latency_std_ms").get().value()).isEqualTo(88.2, offset(1e-9));
        assertThat(r.info()).containsEntry("request_rate", "Infinity");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void hostileResultBlockKeepsOnlyFiniteNonNegativeReadableValues() {
        ParseResult r = vllm.parse(Resources.text("parse/hostile/serving-hostile.txt"));
        assertThat(r.metric("benchmark_duration")).isEmpty();
        assertThat(r.metric("request_throughput")).isEmpty();
        assertThat(r.metric("output_token_throughput")).isEmpty();
        assertThat(r.metric("total_token_throughput")).isEmpty();
        assertThat(r.metric("peak_output_token_throughput")).isEmpty();
        assertThat(r.metric("ttft_p99_ms")).isEmpty();
        assertThat(r.metric("e2e_latency_p99_ms")).isEmpty();
        assertThat(r.metric("itl_p50_ms")).isEmpty();
        assertThat(r.metric("ttft_mean_ms").get().value()).isEqualTo(62.50); // a duplicate label: the last wins
        assertThat(r.metric("tpot_p99.9_ms").get().value()).isEqualTo(7.10);
        assertThat(r.metrics()).allSatisfy(m -> assertThat(m.name()).matches("[A-Za-z0-9_.:/%-]+"));
        assertThat(r.warnings())
                .anyMatch(w -> w.contains("negative"))
                .anyMatch(w -> w.contains("zero rate"))
                .anyMatch(w -> w.contains("non-finite"));
    }

    @Test
    void hostileSavedResultDropsWrongTypesAndBadPerRequestValues() {
        ParseResult r = vllm.parse(Resources.text("parse/hostile/serving-hostile.json"));
        assertThat(r.metric("request_throughput").get().value())
                .isEqualTo(2.46); // a numeric string, as Python would print it
        assertThat(r.metric("output_token_throughput")).isEmpty();
        assertThat(r.metric("total_token_throughput")).isEmpty();
        assertThat(r.metric("ttft_mean_ms")).isEmpty();
        assertThat(r.metric("tpot_p50_ms")).isEmpty();
        assertThat(r.metric("itl_p99_ms")).isEmpty();
        assertThat(r.metric("ttft_p99_ms").get().value()).isEqualTo(101.5);
        assertThat(r.metric("e2e_latency_mean_ms").get().samples()).containsExactly(6400.0, 6600.0);
        assertThat(r.warnings()).anyMatch(w -> w.contains("per-request"));
    }

    @Test
    void truncatedOrEmptyOutputGivesNoMetricAndAWarning() {
        String text = Resources.text("parse/vllm-serving-result.txt");
        ParseResult r = vllm.parse(text.substring(0, text.indexOf("Successful requests")));
        assertThat(r.metrics()).isEmpty();
        assertThat(r.warnings()).isNotEmpty();
        assertThat(vllm.parse("{\"request_throughput\": 1").metrics()).isEmpty();
        assertThat(sglang.parse("").metrics()).isEmpty();
        assertThat(sglang.parse("[".repeat(10_000)).metrics()).isEmpty();
    }
}
