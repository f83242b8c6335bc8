package dev.podium.events.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one throttle reason showed on one device during a run's measured window: in how many samples, first and last
 * seen (seconds since the run started). Spans of the same device and reason merge by summing and widening, in any
 * order, so ingest can keep them as running sums.
 */
public record ThrottleSpan(int device, ThrottleReason reason, long samples, double firstT, double lastT) {

    /** One device and reason. */
    public record Id(int device, ThrottleReason reason) {}

    public Id id() {
        return new Id(device, reason);
    }

    public ThrottleSpan merge(ThrottleSpan o) {
        return new ThrottleSpan(
                device, reason, samples + o.samples, Math.min(firstT, o.firstT), Math.max(lastT, o.lastT));
    }

    /**
     * The spans of the measured window's samples (those of a repetition) of a {@link SeriesKind#THROTTLE_REASONS}
     * series; a sample without a device counts as device 0.
     */
    public static List<ThrottleSpan> of(List<Sample> samples) {
        Map<Id, ThrottleSpan> out = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.repetition() == null) {
                continue;
            }
            int device = s.device() == null ? 0 : s.device();
            for (ThrottleReason r : ThrottleReason.of((long) s.value())) {
                out.merge(new Id(device, r), new ThrottleSpan(device, r, 1, s.t(), s.t()), ThrottleSpan::merge);
            }
        }
        return new ArrayList<>(out.values());
    }

    /** How many of the samples fall in the measured window. */
    public static long inWindow(List<Sample> samples) {
        return samples.stream().filter(s -> s.repetition() != null).count();
    }
}
