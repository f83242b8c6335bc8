package dev.podium.ingest.projection;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Sample;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunEvent;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/**
 * A run event as one line a reader takes in at a glance, at most {@link #MAX} characters, which a run page lists instead
 * of the payload (up to 1 MiB, 10,000 samples): a series' kind, unit, sample count and ranges, a start's benchmark, key
 * and devices, an end's metrics and checks, a failure's reason, and any other event as compact JSON. Lists stop once the
 * line is full, so the cost is at most one pass over the event's own values.
 */
final class EventSummary {

    /** The most characters of a summary; V99 checks it too. */
    static final int MAX = 200;

    private static final MathContext SIGNIFICANT = new MathContext(6);

    private EventSummary() {}

    static String of(RunEvent event) {
        if (event instanceof MetricSampled m) {
            return sampled(m);
        }
        if (event instanceof RunStarted r) {
            return started(r);
        }
        if (event instanceof RunCompleted r) {
            return completed(r);
        }
        if (event instanceof RunFailed f) {
            return new Line()
                    .add("failed in ")
                    .add(f.phase())
                    .add(f.exitCode() == null ? "" : " (exit " + f.exitCode() + ")")
                    .add(": ")
                    .add(f.reason())
                    .text();
        }
        // The run's id is the page's own; the rest of a small event reads well enough as it was sent.
        ObjectNode json = Json.tree(event);
        json.remove("run_id");
        return new Line().add(json.toString()).text();
    }

    /** {@code POWER in W: 10000 samples, t 0.0-2499.75 s, values 400.0-599.0}. */
    private static String sampled(MetricSampled m) {
        List<Sample> samples = m.samples() == null ? List.of() : m.samples();
        Line line = new Line()
                .add(m.series() == null ? null : m.series().name())
                .add(" in ")
                .add(m.unit())
                .add(": " + samples.size() + (samples.size() == 1 ? " sample" : " samples"));
        if (samples.isEmpty()) {
            return line.text();
        }
        double minT = Double.POSITIVE_INFINITY;
        double maxT = Double.NEGATIVE_INFINITY;
        double minValue = Double.POSITIVE_INFINITY;
        double maxValue = Double.NEGATIVE_INFINITY;
        for (Sample s : samples) {
            minT = Math.min(minT, s.t());
            maxT = Math.max(maxT, s.t());
            minValue = Math.min(minValue, s.value());
            maxValue = Math.max(maxValue, s.value());
        }
        return line.add(", t " + number(minT) + "-" + number(maxT) + " s, values ")
                .add(number(minValue) + "-" + number(maxValue))
                .text();
    }

    /** {@code reference-finetune, key tiny · fp32 · batch 8; devices intel-gaudi2 ×8; 3 repetitions}. */
    private static String started(RunStarted r) {
        Line line = new Line();
        if (r.key() != null) {
            line.add(r.key().benchmark()).add(", key ").add(r.key().label());
        }
        line.add("; devices ");
        List<Accelerator> accelerators = r.accelerators() == null ? List.of() : r.accelerators();
        for (int i = 0; i < accelerators.size() && !line.full(); i++) {
            Accelerator a = accelerators.get(i);
            line.add(i == 0 ? "" : ", ").add(a.deviceId()).add(" ×" + a.total());
        }
        return line.add("; " + r.repetitions() + " repetitions").text();
    }

    /** {@code 2 metrics: train_samples_per_second, train_loss; 4 of 4 checks passed; 127.5 s}. */
    private static String completed(RunCompleted r) {
        List<Metric> metrics = r.metrics() == null ? List.of() : r.metrics();
        Line line = new Line().add(metrics.size() + " metrics: ");
        for (int i = 0; i < metrics.size() && !line.full(); i++) {
            line.add(i == 0 ? "" : ", ").add(metrics.get(i).name());
        }
        List<ValidityCheck> checks = r.validity() == null ? List.of() : r.validity();
        long passed = checks.stream().filter(ValidityCheck::passed).count();
        return line.add("; " + passed + " of " + checks.size() + " checks passed; ")
                .add(number(r.durationSeconds()) + " s")
                .text();
    }

    /** Six significant digits, as Java writes a double: {@code 2500.0}, {@code 0.3}, {@code 1.0E150}. */
    static String number(double v) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        return Double.toString(new BigDecimal(v).round(SIGNIFICANT).doubleValue());
    }

    /**
     * Text that stops taking characters at {@link #MAX}; a line that had more ends with an ellipsis. Control characters
     * (a reason's line breaks) become spaces, so a summary is one line.
     */
    private static final class Line {
        private final StringBuilder text = new StringBuilder(MAX);
        private boolean cut;

        Line add(String s) {
            String part = s == null ? "-" : s;
            for (int i = 0; i < part.length() && !cut; i++) {
                if (text.length() == MAX) {
                    cut = true;
                } else {
                    char c = part.charAt(i);
                    text.append(Character.isISOControl(c) ? ' ' : c);
                }
            }
            return this;
        }

        boolean full() {
            return text.length() == MAX;
        }

        String text() {
            if (!cut) {
                return text.toString();
            }
            int end = MAX - 1;
            // Never half of a surrogate pair: PostgreSQL refuses a lone one.
            if (Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            return text.substring(0, end) + "…";
        }
    }
}
