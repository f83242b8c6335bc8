package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ArrayLiteralTest {

    @Test
    void quotesAndBackslashesAreEscapedAndNullsStayNull() {
        assertThat(literal("{\"a\":\"b\\\\c\"}", null, "NULL", "x,y}", ""))
                .isEqualTo("{\"{\\\"a\\\":\\\"b\\\\\\\\c\\\"}\",NULL,\"NULL\",\"x,y}\",\"\"}");
    }

    @Test
    void valuesOfOtherTypesAreWrittenAsPostgreSqlReadsThem() {
        UUID id = UUID.fromString("0b1c9f5e-6f7a-4a51-9d2c-3b9f0f7a1e22");
        assertThat(literal(id, 42L, 1.5e-300, Double.NaN, true, Instant.parse("2026-11-29T23:00:00.123456Z")))
                .isEqualTo("{\"0b1c9f5e-6f7a-4a51-9d2c-3b9f0f7a1e22\",\"42\",\"1.5E-300\",\"NaN\",\"true\","
                        + "\"2026-11-29T23:00:00.123456Z\"}");
    }

    @Test
    void anEmptyArrayIsTwoBraces() {
        assertThat(literal()).isEqualTo("{}");
    }

    @Test
    void instantsAreTruncatedToMicrosecondsNotRounded() {
        assertThat(literal(Instant.parse("2026-11-29T23:00:00.123456999Z")))
                .isEqualTo("{\"2026-11-29T23:00:00.123456Z\"}");
    }

    @Test
    void decimalsAreWrittenWithoutAnExponent() {
        assertThat(literal(new BigDecimal("1.50E+3"), new BigDecimal("1E-7"))).isEqualTo("{\"1500\",\"0.0000001\"}");
    }

    private static String literal(Object... values) {
        ArrayLiteral literal = new ArrayLiteral(values.length);
        for (Object v : values) {
            literal.add(v);
        }
        return literal.text();
    }
}
