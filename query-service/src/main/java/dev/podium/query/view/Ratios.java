package dev.podium.query.view;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Ratios as pages show them, to two decimals. */
public final class Ratios {

    private Ratios() {}

    /**
     * {@code numerator ÷ denominator} to two decimals, half up, exactly as the decimal division of the two values would give
     * it. Done in doubles (a comparison page shows hundreds) unless the quotient lies so close to a rounding boundary that
     * the doubles' error could matter; then in decimals.
     */
    public static String twoDecimals(double numerator, double denominator) {
        double hundredths = numerator / denominator * 100;
        double fraction = Math.abs(hundredths - Math.floor(hundredths));
        if (!Double.isFinite(hundredths) || Math.abs(hundredths) > 1e12 || Math.abs(fraction - 0.5) < 1e-6) {
            return BigDecimal.valueOf(numerator)
                    .divide(BigDecimal.valueOf(denominator), MathContext.DECIMAL64)
                    .setScale(2, RoundingMode.HALF_UP)
                    .toPlainString();
        }
        long cents = Math.round(hundredths);
        long abs = Math.abs(cents);
        long rest = abs % 100;
        return (cents < 0 ? "-" : "") + abs / 100 + (rest < 10 ? ".0" : ".") + rest;
    }
}
