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
        assertThat(r.metric("total_flos").get().value()).isEqualTo(3695026e9);
        assertThat(r.metric("grad_norm")).isEmpty(); // the block wins over logged dict lines
    }

    @Test
    void fallsBackToTheMetricsDictLineWhenThereIsNoBlock() {
        ParseResult r = parser.parse("noise\n{'train_runtime': 3.21, 'train_samples_per_second': 19.939, 'epoch': 1.0}\n");
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
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/podium-pwned"))).isFalse();
        assertThat(r.metrics()).allSatisfy(m -> assertThat(Double.isFinite(m.value())).isTrue());
        assertThat(r.warnings()).isNotEmpty();
    }

    @Test
    void anEnormousLineIsSkippedNotMatched() {
        String huge = "{'train_samples_per_second': 1" + "0".repeat(200_000) + "}\n{'train_samples_per_second': 7.5}\n";
        assertThat(parser.parse(huge).metric("train_samples_per_second").get().value()).isEqualTo(7.5);
    }
}
