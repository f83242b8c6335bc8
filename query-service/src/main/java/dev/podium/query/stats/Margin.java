package dev.podium.query.stats;

import java.util.Locale;
import java.util.Optional;

/**
 * The margin δ within which two measurements count as the same, as a percentage (5 for ±5%): a ratio is the same within
 * the margin when its log lies within ±log(1 + δ). From {@link #LEAST} to {@link #MOST} percent: a smaller margin asks
 * for more runs than any fleet makes (and below a thousandth the log bound drowns in rounding), a larger one calls a
 * device the same as one half its speed.
 */
public record Margin(double percent) {

    public static final double LEAST = 0.1;
    public static final double MOST = 50;

    public Margin {
        if (!(percent >= LEAST && percent <= MOST)) {
            throw new IllegalArgumentException(rule(Double.toString(percent)));
        }
    }

    /** A margin from a request's text, or empty when it is not a number of percent within the bounds. */
    public static Optional<Margin> parse(String text) {
        if (text == null || text.length() > 20) {
            return Optional.empty();
        }
        try {
            double percent = Double.parseDouble(text.strip());
            return percent >= LEAST && percent <= MOST ? Optional.of(new Margin(percent)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** What a margin must be, said to whoever sent {@code given}. */
    public static String rule(String given) {
        return "margin must be a number of percent from " + plain(LEAST) + " to " + plain(MOST)
                + " (5 for \u00b15%), not " + given;
    }

    /** δ as a fraction: 0.05 for ±5%. */
    public double delta() {
        return percent / 100;
    }

    /** The equivalence bound on the log ratio, log(1 + δ). */
    public double logBound() {
        return Math.log1p(delta());
    }

    /** "5%". */
    public String text() {
        return plain(percent) + "%";
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
