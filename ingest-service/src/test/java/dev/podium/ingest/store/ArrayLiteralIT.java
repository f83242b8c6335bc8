package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What PostgreSQL reads from an {@link ArrayLiteral} is exactly what was bound. */
@QuarkusTest
class ArrayLiteralIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void textWithQuotesBackslashesBracesAndNullsReadsBackUnchanged() throws Exception {
        Object[] values = {"{\"a\":\"b\\\\c \\\"q\\\"\"}", null, "NULL", "x,y}", "", " lead and trail ", "ü € 𝄞"};
        assertThat((Object[]) roundTrip("text", values)).containsExactly(values);
    }

    @Test
    void numbersAndInstantsReadBackExactly() throws Exception {
        Double[] doubles = {0.1, 1.5e-300, -2.2250738585072014E-308, 123456789.123456789, Double.MAX_VALUE, null};
        assertThat((Object[]) roundTrip("float8", doubles)).containsExactly((Object[]) doubles);
        Instant at = Instant.parse("2026-11-29T23:00:00.123456Z");
        Object[] read = (Object[]) roundTrip("timestamptz", new Object[] {at});
        assertThat(((java.sql.Timestamp) read[0]).toInstant()).isEqualTo(at);
    }

    private Object roundTrip(String type, Object[] values) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT ?::" + type + "[]")) {
            ArrayLiteral literal = new ArrayLiteral(values.length);
            for (Object v : values) {
                literal.add(v);
            }
            literal.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getArray(1).getArray();
            }
        }
    }
}
