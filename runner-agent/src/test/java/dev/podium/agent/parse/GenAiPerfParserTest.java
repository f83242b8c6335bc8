package dev.podium.agent.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.podium.agent.support.Resources;
import dev.podium.events.model.Direction;
import org.junit.jupiter.api.Test;

class GenAiPerfParserTest {

    private final GenAiPerfParser parser = new GenAiPerfParser();

    @Test
    void genaiPerfExportGivesThroughputsTtftItlAndLatencyPercentilesAndConcurrency() {
        ParseResult r = parser.parse(Resources.text("parse/genai-perf-export.json"));
        assertThat(r.metrics().get(0).name()).isEqualTo("output_token_throughput");
        assertThat(r.metric("output_token_throughput")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(1686.22);
            assertThat(m.unit()).isEqualTo("tokens/s");
            assertThat(m.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        });
        assertThat(r.metric("request_throughput").get().unit()).isEqualTo("req/s");
        assertThat(r.metric("output_token_throughput_per_user").get().unit()).isEqualTo("tokens/s/user");
        assertThat(r.metric("output_token_throughput_per_user_p50").get().value())
                .isEqualTo(109.0);
        assertThat(r.metric("ttft_p99_ms")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(52.1);
            assertThat(m.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        });
        assertThat(r.metric("ttft_mean_ms").get().value()).isEqualTo(31.44);
        assertThat(r.metric("itl_p90_ms").get().value()).isEqualTo(9.4);
        assertThat(r.metric("e2e_latency_p50_ms").get().value()).isEqualTo(2391.2);
        assertThat(r.metric("ttst_p99_ms")).isPresent();
        assertThat(r.metric("output_sequence_length")).isEmpty();
        assertThat(r.info())
                .containsEntry("concurrency", "16")
                .containsEntry("model", "meta-llama/Meta-Llama-3-8B-Instruct")
                .containsKey("output_sequence_length");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void aiperfExportIsReadTheSameWayWithItsConcurrencyUnderLoadgen() {
        ParseResult r = parser.parse(Resources.text("parse/aiperf-export.json"));
        assertThat(r.metric("output_token_throughput").get().value()).isEqualTo(3172.8);
        assertThat(r.metric("ttft_p99_ms").get().value()).isEqualTo(41.8);
        assertThat(r.metric("e2e_latency_p99_ms").get().value()).isEqualTo(1401.7);
        assertThat(r.metric("benchmark_duration").get().value()).isEqualTo(48.35, offset(1e-9));
        assertThat(r.metric("benchmark_duration").get().unit()).isEqualTo("s");
        assertThat(r.info())
                .containsEntry("concurrency", "16")
                .containsEntry("model", "Qwen/Qwen3-0.6B")
                .containsEntry("request_count", "600.0");
    }

    @Test
    void hostileExportDropsNegativeZeroNonFiniteWrongTypesAndUnknownUnitsAndConvertsNanoseconds() {
        ParseResult r = parser.parse(Resources.text("parse/hostile/genai-perf-hostile.json"));
        assertThat(r.metric("request_throughput")).isEmpty();
        assertThat(r.metric("output_token_throughput")).isEmpty();
        assertThat(r.metric("output_token_throughput_per_user")).isEmpty();
        assertThat(r.metric("output_token_throughput_per_user_p50")).isEmpty();
        assertThat(r.metric("ttft_mean_ms").get().value()).isEqualTo(31.44, offset(1e-9));
        assertThat(r.metric("ttft_p90_ms")).isEmpty();
        assertThat(r.metric("ttft_std_ms")).isEmpty();
        assertThat(r.metric("itl_mean_ms").get().value()).isEqualTo(1e308);
        assertThat(r.metric("e2e_latency_mean_ms")).isEmpty();
        assertThat(r.metrics()).allSatisfy(m -> assertThat(m.name()).matches("[A-Za-z0-9_.:/%-]+"));
        assertThat(r.info()).containsEntry("concurrency", "8");
        assertThat(r.warnings()).anyMatch(w -> w.contains("negative")).anyMatch(w -> w.contains("zero rate"));
        assertThat(parser.parse("{\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 3")
                        .metrics())
                .isEmpty();
        assertThat(parser.parse("[]").warnings()).isNotEmpty();
    }
}
