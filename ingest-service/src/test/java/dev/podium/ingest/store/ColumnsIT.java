package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Rows bound with {@link Columns} are read by PostgreSQL as the very same rows, in order. */
@QuarkusTest
class ColumnsIT {

    private record Sample(
            UUID runId,
            String label,
            Integer n,
            long position,
            Double mean,
            boolean valid,
            Instant at,
            BigDecimal sum) {}

    private static final Columns<Sample> SAMPLE = Columns.of(Sample.class);

    @Inject
    AgroalDataSource dataSource;

    @Test
    void boundRowsReadBackUnchangedAndInOrder() throws Exception {
        List<Sample> rows = List.of(
                new Sample(
                        UUID.randomUUID(),
                        "a \"quoted\" \\ label, {braced}",
                        3,
                        7L,
                        0.1,
                        true,
                        Instant.parse("2026-11-29T23:00:00.123456Z"),
                        new BigDecimal("12345678901234567890.0123456789")),
                new Sample(UUID.randomUUID(), null, null, Long.MAX_VALUE, null, false, null, null),
                new Sample(
                        UUID.randomUUID(),
                        "NULL",
                        -1,
                        -2L,
                        -2.2250738585072014E-308,
                        true,
                        Instant.parse("1970-01-01T00:00:00Z"),
                        new BigDecimal("1E+3")));
        List<Sample> read = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT " + SAMPLE.names() + " FROM " + SAMPLE.unnestWithOrdinality("x") + " ORDER BY ord")) {
            SAMPLE.bind(ps, 1, rows);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    read.add(new Sample(
                            rs.getObject(1, UUID.class),
                            rs.getString(2),
                            rs.getObject(3, Integer.class),
                            rs.getLong(4),
                            rs.getObject(5, Double.class),
                            rs.getBoolean(6),
                            rs.getTimestamp(7) == null
                                    ? null
                                    : rs.getTimestamp(7).toInstant(),
                            rs.getBigDecimal(8)));
                }
            }
        }
        assertThat(read).hasSize(3);
        assertThat(read.subList(0, 2)).isEqualTo(rows.subList(0, 2));
        assertThat(read.get(2).sum()).isEqualByComparingTo("1000");
    }
}
