package dev.podium.events.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When an adaptive campaign ({@link Adaptive}) asks for another run and when it stops. The ratio's interval is the one
 * every measured ratio gets (Welch-Satterthwaite on the log run means of the two sides): its half-width h on the log
 * scale is read as the percentage {@code (exp(h) - 1) * 100}. The decision needs only each side's sums, so it costs the
 * same for the fiftieth run as for the third.
 */
public final class AdaptiveStop {

    /** Why an adaptive campaign stopped asking for runs. */
    public enum Reason {
        TARGET_MET("the ratio's 95% interval is within the target"),
        BUDGET_SPENT("each side that could narrow the interval has run its maximum");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** One side's counted runs as sums of their log means, and the jobs it has requested (counted or not). */
    public record Side(int runs, double sumLog, double sumLogSquares, int jobs) {

        public static final Side FIRST_JOB = new Side(0, 0, 0, 1);

        /** With one more counted run whose mean is {@code value} (finite, above zero). */
        public Side plus(double value) {
            double x = Math.log(value);
            return new Side(runs + 1, sumLog + x, sumLogSquares + x * x, jobs);
        }

        public Side withJob() {
            return new Side(runs, sumLog, sumLogSquares, jobs + 1);
        }

        double mean() {
            return sumLog / runs;
        }

        /** Sample variance of the log means, never below zero (rounding of the sums). */
        double variance() {
            return Math.max(0, (sumLogSquares - sumLog * sumLog / runs) / (runs - 1));
        }
    }

    /** What to do after a run of the campaign ends. */
    public sealed interface Decision {
        /** Request one more job for each of these sides (0 or 1); {@code halfWidthPct} is null below three runs. */
        record More(List<Integer> sides, Double halfWidthPct) implements Decision {}

        record Stop(Reason reason, Double halfWidthPct) implements Decision {}
    }

    private AdaptiveStop() {}

    /** The decision for sides {@code a} and {@code b}, none of whose jobs is still outstanding. */
    public static Decision decide(Side a, Side b, Adaptive adaptive) {
        List<Side> sides = List.of(a, b);
        boolean measured = a.runs() >= Adaptive.MIN_RUNS && b.runs() >= Adaptive.MIN_RUNS;
        Double halfWidth = measured ? halfWidthPct(a, b) : null;
        if (measured && halfWidth <= adaptive.targetHalfWidthPct()) {
            return new Decision.Stop(Reason.TARGET_MET, halfWidth);
        }
        List<Integer> more = new ArrayList<>();
        if (!measured) {
            for (int i = 0; i < 2; i++) {
                if (sides.get(i).runs() < Adaptive.MIN_RUNS && sides.get(i).jobs() < adaptive.max()) {
                    more.add(i);
                }
            }
        } else {
            dominant(a, b, adaptive.max()).ifPresent(more::add);
        }
        return more.isEmpty() ? new Decision.Stop(Reason.BUDGET_SPENT, halfWidth) : new Decision.More(more, halfWidth);
    }

    /** The side with budget left whose variance of its mean (s²/n) is the larger share of the ratio's. */
    private static Optional<Integer> dominant(Side a, Side b, int max) {
        boolean aOpen = a.jobs() < max;
        boolean bOpen = b.jobs() < max;
        if (aOpen && bOpen) {
            return Optional.of(a.variance() / a.runs() >= b.variance() / b.runs() ? 0 : 1);
        }
        return aOpen ? Optional.of(0) : bOpen ? Optional.of(1) : Optional.empty();
    }

    /** The 95% Welch interval's half-width of the ratio, in percent; sides of at least two runs. */
    public static double halfWidthPct(Side a, Side b) {
        double va = a.variance() / a.runs();
        double vb = b.variance() / b.runs();
        double se2 = va + vb;
        if (se2 == 0) {
            return 0;
        }
        double df = se2 * se2 / (va * va / (a.runs() - 1) + vb * vb / (b.runs() - 1));
        return Math.expm1(StudentT.quantile975(Math.max(1, df)) * Math.sqrt(se2)) * 100;
    }
}
