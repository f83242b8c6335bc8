package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ColumnsTest {

    private record Sample(
            UUID runId,
            String metricName,
            int n,
            Long lastPosition,
            double ci95Low,
            Boolean valid,
            Instant startedAt,
            BigDecimal meanSum) {}

    private record Unsupported(UUID runId, List<Double> values) {}

    @Test
    void componentsAreColumnsInDeclarationOrderNamedInSnakeCaseAndTypedAfterTheirJavaType() {
        Columns<Sample> columns = Columns.of(Sample.class);
        assertThat(columns.names())
                .isEqualTo("run_id, metric_name, n, last_position, ci95_low, valid, started_at, mean_sum");
        assertThat(columns.parameters())
                .isEqualTo(
                        "?::uuid[], ?::text[], ?::int[], ?::bigint[], ?::float8[], ?::bool[], ?::timestamptz[], ?::numeric[]");
    }

    @Test
    void theRowsAreAFromItemWithOrWithoutTheirPlaceInTheList() {
        record Pair(String keyId, String metric) {}
        Columns<Pair> columns = Columns.of(Pair.class);
        assertThat(columns.unnest("t")).isEqualTo("unnest(?::text[], ?::text[]) AS t(key_id, metric)");
        assertThat(columns.unnestWithOrdinality("x"))
                .isEqualTo("unnest(?::text[], ?::text[]) WITH ORDINALITY AS x(key_id, metric, ord)");
    }

    @Test
    void aComponentWithoutAColumnTypeIsRefusedWhenTheColumnsAreMade() {
        assertThatThrownBy(() -> Columns.of(Unsupported.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("values");
    }
}
