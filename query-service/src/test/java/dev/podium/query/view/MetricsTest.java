package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.ws.rs.NotFoundException;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {

    @Test
    void samplesPerSecondIsPrimaryEvenWhenTrainLossSortsFirst() {
        assertThat(Metrics.primary(List.of("train_loss", "train_samples_per_second", "train_steps_per_second")))
                .isEqualTo("train_samples_per_second");
    }

    @Test
    void anyRateBeatsALossWhenNoSamplesRateExists() {
        assertThat(Metrics.primary(List.of("eval_loss", "tokens_per_second"))).isEqualTo("tokens_per_second");
        assertThat(Metrics.primary(List.of("train_loss", "throughput"))).isEqualTo("throughput");
    }

    @Test
    void otherwiseTheMostCommonMetricStays() {
        assertThat(Metrics.primary(List.of("latency_ms", "images_per_image"))).isEqualTo("latency_ms");
        assertThat(Metrics.primary(List.of())).isNull();
    }

    @Test
    void aListedMetricIsKeptAndNoneAskedForIsThePrimary() {
        List<String> metrics = List.of("train_loss", "train_samples_per_second");
        assertThat(Metrics.choose("train_loss", metrics, m -> false))
                .isEqualTo(new Metrics.Choice("train_loss", metrics));
        assertThat(Metrics.choose(" ", metrics, m -> false))
                .isEqualTo(new Metrics.Choice("train_samples_per_second", metrics));
    }

    @Test
    void aMetricPastTheListIsShownAndOfferedAndAnUnknownOneIsNotFound() {
        List<String> metrics = List.of("train_loss", "train_samples_per_second");
        assertThat(Metrics.choose("eval_loss", metrics, "eval_loss"::equals))
                .isEqualTo(new Metrics.Choice(
                        "eval_loss", List.of("train_loss", "train_samples_per_second", "eval_loss")));
        assertThatThrownBy(() -> Metrics.choose("nope", metrics, "eval_loss"::equals))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("nope");
    }
}
