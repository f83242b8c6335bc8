package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.query.config.QueryConfig;
import dev.podium.query.stats.Margin;
import jakarta.ws.rs.BadRequestException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which margin a page judges at: the request's, else the benchmark's, else the default. */
class MarginsTest {

    private final Margins margins = new Margins(config(5, Map.of("noisy-bench", 10.0)));

    @Test
    void aBenchmarkWithItsOwnMarginIsJudgedAtIt() {
        assertThat(margins.of(null, "noisy-bench")).isEqualTo(new Margin(10));
        assertThat(margins.of(null, "other")).isEqualTo(new Margin(5));
        assertThat(margins.of(null, null)).isEqualTo(new Margin(5));
    }

    @Test
    void aMarginAskedForWinsOverTheConfiguredOnes() {
        assertThat(margins.of("2.5", "noisy-bench")).isEqualTo(new Margin(2.5));
    }

    @Test
    void aHostileMarginIsA400ThatSaysWhatAMarginMustBeAndEchoesNoMoreThan20Characters() {
        String huge = "9".repeat(10_000);
        assertThatThrownBy(() -> margins.of(huge, "noisy-bench"))
                .isInstanceOf(BadRequestException.class)
                .satisfies(e -> {
                    String body =
                            (String) ((BadRequestException) e).getResponse().getEntity();
                    assertThat(body).startsWith("margin must be a number of percent from 0.1 to 50");
                    assertThat(body).hasSizeLessThan(120);
                    assertThat(((BadRequestException) e).getResponse().getStatus())
                            .isEqualTo(400);
                });
    }

    @Test
    void aConfiguredMarginOutsideTheBoundsStopsTheServiceAtStart() {
        assertThatThrownBy(() -> new Margins(config(0, Map.of())))
                .hasMessageContaining("margin must be a number of percent");
        assertThatThrownBy(() -> new Margins(config(5, Map.of("b", 80.0))))
                .hasMessageContaining("margin must be a number of percent");
    }

    private static QueryConfig config(double margin, Map<String, Double> perBenchmark) {
        return new QueryConfig() {
            @Override
            public Duration onlineWindow() {
                return Duration.ofSeconds(90);
            }

            @Override
            public int recentRuns() {
                return 20;
            }

            @Override
            public int maxRows() {
                return 500;
            }

            @Override
            public Map<String, Double> prices() {
                return Map.of();
            }

            @Override
            public Map<String, Double> ownedPrices() {
                return Map.of();
            }

            @Override
            public double electricityPerKwh() {
                return 0.13;
            }

            @Override
            public Duration warmup() {
                return Duration.ZERO;
            }

            @Override
            public Equivalence equivalence() {
                return new Equivalence() {
                    @Override
                    public double margin() {
                        return margin;
                    }

                    @Override
                    public Map<String, Double> margins() {
                        return perBenchmark;
                    }
                };
            }

            @Override
            public Cache cache() {
                return null;
            }
        };
    }
}
