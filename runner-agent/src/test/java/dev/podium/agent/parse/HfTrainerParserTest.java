package dev.podium.agent.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.support.Resources;
import dev.podium.events.model.Direction;
import org.junit.jupiter.api.Test;

class HfTrainerParserTest {

    private final HfTrainerParser parser = new HfTrainerParser();

    @Test
    void readsTheTrainMetricsBlockWithItsRuntimeInHoursMinutesSeconds() {
        ParseResult r = parser.parse(Resources.text("parse/hf-trainer-log.txt"));
        assertThat(r.metric("train_samples_per_second")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(35.158);
            assertThat(m.unit()).isEqualTo("samples/s");
            assertThat(m.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        });
        assertThat(r.metric("train_runtime").get().value()).isEqualTo(85.33, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("train_runtime").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.metric("total_flos").get().value()).isEqualTo(3695026.0 * (1L << 30)); // int(flos) >> 30
        assertThat(r.metric("grad_norm")).isEmpty(); // the block wins over logged dict lines
    }

    @Test
    void fallsBackToTheMetricsDictLineWhenThereIsNoBlock() {
        ParseResult r =
                parser.parse("noise\n{'train_runtime': 3.21, 'train_samples_per_second': 19.939, 'epoch': 1.0}\n");
        assertThat(r.metric("train_samples_per_second").get().value()).isEqualTo(19.939);
        assertThat(r.metric("train_runtime").get().unit()).isEqualTo("s");
    }

    @Test
    void readsAllResultsJson() {
        ParseResult r = parser.parse(Resources.text("parse/all_results.json"));
        assertThat(r.metric("eval_accuracy").get().direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(r.metric("train_samples_per_second").get().value()).isEqualTo(35.158);
        assertThat(r.metrics()).hasSize(10);
    }

    @Test
    void truncatedBlockGivesNoMetricAndNoError() {
        ParseResult r = parser.parse(Resources.text("parse/hostile/hf-truncated.txt"));
        assertThat(r.metrics()).isEmpty();
    }

    @Test
    void hostileOutputIsNeverEvaluatedAndNonFiniteOrImpossibleValuesAreDropped() {
        ParseResult r = parser.parse(Resources.text("parse/hostile/hf-hostile.txt"));
        assertThat(r.metric("train_samples_per_second")).isEmpty();
        assertThat(r.metric("train_runtime")).isEmpty();
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/podium-pwned")))
                .isFalse();
        assertThat(r.metrics())
                .allSatisfy(m -> assertThat(Double.isFinite(m.value())).isTrue());
        assertThat(r.warnings()).isNotEmpty();
    }

    @Test
    void anEnormousLineIsSkippedNotMatched() {
        String huge = "{'train_samples_per_second': 1" + "0".repeat(200_000) + "}\n{'train_samples_per_second': 7.5}\n";
        assertThat(parser.parse(huge).metric("train_samples_per_second").get().value())
                .isEqualTo(7.5);
    }

    @Test
    void optimumHabanaBlockWithKeysWithSpacesAndUnitsKeepsEveryMetric() {
        ParseResult r = parser.parse(Resources.text("parse/optimum-habana-train-log.txt"));
        assertThat(r.metric("train_samples_per_second").get().value()).isEqualTo(282.213);
        assertThat(r.metric("train_runtime").get().value())
                .isEqualTo(112.48, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.metric("train_steps_per_second").get().value()).isEqualTo(2.21);
        assertThat(r.metric("max_memory_allocated")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(38.2);
            assertThat(m.unit()).isEqualTo("GB");
            assertThat(m.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        });
        assertThat(r.metric("total_memory_available").get().unit()).isEqualTo("GB");
        assertThat(r.metric("grad_norm")).isEmpty(); // the block wins over the dict lines
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void theDictLineWithKeysWithSpacesIsReadWhenThereIsNoBlock() {
        String log = Resources.text("parse/optimum-habana-train-log.txt")
                .lines()
                .filter(l -> !l.startsWith("  ") && !l.startsWith("*****"))
                .reduce("", (a, b) -> a + b + "\n");
        ParseResult r = parser.parse(log);
        assertThat(r.metric("train_samples_per_second").get().value()).isEqualTo(282.213);
        assertThat(r.metric("max_memory_allocated").get().unit()).isEqualTo("GB");
    }

    @Test
    void runtimesOfADayOrMoreMemoryInMibAndEveryBlockAreRead() {
        ParseResult r = parser.parse(Resources.text("parse/hf-trainer-long-run.txt"));
        assertThat(r.metric("train_runtime").get().value())
                .isEqualTo(93784.05, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.metric("init_mem_cpu_alloc_delta")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(1301.0);
            assertThat(m.unit()).isEqualTo("MiB");
        });
        assertThat(r.metric("train_mem_cpu_alloc_delta")).isEmpty(); // a negative delta is no result
        assertThat(r.metric("total_flos").get().value()).isEqualTo(135106442.0 * (1L << 30));
        assertThat(r.metric("eval_samples_per_second").get().value()).isEqualTo(24.344);
        assertThat(r.metric("perplexity").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
    }

    @Test
    void optimumHabanaGenerationStatsGiveThroughputLatenciesAndMemory() {
        ParseResult r = parser.parse(Resources.text("parse/optimum-habana-generation-stats.txt"));
        assertThat(r.metric("throughput_including_tokenization")).get().satisfies(m -> {
            assertThat(m.value()).isEqualTo(1523.5866617137516);
            assertThat(m.unit()).isEqualTo("tokens/s");
            assertThat(m.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        });
        assertThat(r.metric("average_first_token_latency").get().unit()).isEqualTo("ms");
        assertThat(r.metric("average_first_token_latency").get().direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(r.metric("max_memory_allocated").get().value()).isEqualTo(16.58);
        assertThat(r.metric("graph_compilation_duration").get().unit()).isEqualTo("s");
    }

    @Test
    void hostileBlockKeepsTheGoodLinesAndDropsNegativeZeroInfiniteAndUnreadableOnes() {
        ParseResult r = parser.parse(Resources.text("parse/hostile/hf-hostile-keys.txt"));
        assertThat(r.metric("max_memory_allocated").get().value()).isEqualTo(39.5); // a duplicate key: the last wins
        assertThat(r.metric("train_samples_per_second")).isEmpty();
        assertThat(r.metric("train_steps_per_second")).isEmpty();
        assertThat(r.metric("train_tokens_per_second")).isEmpty();
        assertThat(r.metric("eval_samples_per_second")).isEmpty();
        assertThat(r.metric("eval_steps_per_second")).isEmpty();
        assertThat(r.metric("train_loss")).isEmpty();
        assertThat(r.metric("train_runtime")).isEmpty();
        assertThat(r.metric("total_flos").get().value()).isEqualTo(1e308);
        assertThat(r.metric("samples_per_second").get().unit()).isEqualTo("samples/s");
        assertThat(r.metrics()).allSatisfy(m -> {
            assertThat(m.name()).matches("[A-Za-z0-9_.:/%-]+");
            assertThat(m.value()).isFinite().isNotNegative();
        });
        assertThat(r.warnings())
                .anyMatch(w -> w.contains("negative") && w.contains("train_samples_per_second"))
                .anyMatch(w -> w.contains("zero rate") && w.contains("train_steps_per_second"));
    }

    @Test
    void resultsJsonWithPythonsNanAndInfinityKeepsItsFiniteValues() {
        ParseResult r = parser.parse(Resources.text("parse/hostile/hf-results-nan.json"));
        assertThat(r.metric("eval_samples_per_second").get().value()).isEqualTo(236.961);
        assertThat(r.metric("max_memory_allocated").get().unit()).isEqualTo("GB");
        assertThat(r.metric("eval_loss")).isEmpty();
        assertThat(r.metric("train_runtime")).isEmpty();
        assertThat(r.metric("train_samples_per_second")).isEmpty();
        assertThat(r.metric("train_steps_per_second")).isEmpty();
        assertThat(r.metric("train_loss")).isEmpty(); // a string is not a value
        assertThat(r.warnings()).hasSizeGreaterThanOrEqualTo(4);
    }
}
