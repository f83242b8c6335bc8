package dev.podium.events.validate;

import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ThrottleSpan;
import dev.podium.events.model.ValidityCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code not_throttled}: no device reported a hardware slowdown, a hardware or software thermal slowdown or a hardware
 * power brake during the run's measured window, and none ran with an enforced power limit below its default. A software
 * power cap is what a device at full load does under its limit, so it only shows in the detail. The agent judges it from
 * its samples and ingest judges it again from the same samples and the run's devices, so one definition serves both.
 * A run whose readings lie (a device configured beyond any device, reasons on a device it did not name or after it
 * ended) fails too: nothing it reported can vouch for it. Pure.
 */
public final class ThrottleCheck {

    public static final String NAME = "not_throttled";
    /** Most findings named in the detail; the rest are counted. */
    static final int MAX_NAMED = 8;

    private ThrottleCheck() {}

    /**
     * The check for a run whose measured window held {@code windowSamples} throttle-reason samples, with these spans,
     * on these devices (null when the agent did not report them), that lasted {@code durationSeconds} (null when not
     * known); empty when there is nothing to judge: no throttle samples and no device with both its limits.
     */
    public static Optional<ValidityCheck> judge(
            List<AcceleratorDevice> devices, long windowSamples, List<ThrottleSpan> spans, Double durationSeconds) {
        List<AcceleratorDevice> known = devices == null ? List.of() : devices;
        boolean limitsKnown =
                known.stream().anyMatch(d -> d.powerLimitWatts() != null && d.defaultPowerLimitWatts() != null);
        if (windowSamples == 0 && !limitsKnown) {
            return Optional.empty();
        }
        Map<Integer, AcceleratorDevice> byIndex =
                known.stream().collect(Collectors.toMap(AcceleratorDevice::index, Function.identity(), (a, b) -> a));
        List<String> failures = untrusted(known, byIndex, spans, durationSeconds);
        spans.stream()
                .filter(s -> s.reason().slowdown())
                .sorted(Comparator.comparingInt(ThrottleSpan::device)
                        .thenComparing(ThrottleSpan::reason)
                        .thenComparingDouble(ThrottleSpan::firstT))
                .forEach(s -> failures.add(String.format(
                        Locale.ROOT,
                        "%s on %s in %d sample%s from %.1f s to %.1f s",
                        s.reason().label(),
                        device(s.device(), byIndex),
                        s.samples(),
                        s.samples() == 1 ? "" : "s",
                        s.firstT(),
                        s.lastT())));
        known.stream()
                .filter(d -> d.powerCapped() && DeviceReadings.implausible(d).isEmpty())
                .sorted(Comparator.comparingInt(AcceleratorDevice::index))
                .forEach(d -> failures.add(String.format(
                        Locale.ROOT,
                        "power limit %s W below its default %s W on %s",
                        watts(d.powerLimitWatts()),
                        watts(d.defaultPowerLimitWatts()),
                        device(d.index(), byIndex))));
        if (!failures.isEmpty()) {
            String named = String.join("; ", failures.subList(0, Math.min(MAX_NAMED, failures.size())));
            String more = failures.size() > MAX_NAMED ? "; and " + (failures.size() - MAX_NAMED) + " more" : "";
            return Optional.of(new ValidityCheck(NAME, false, named + more));
        }
        return Optional.of(new ValidityCheck(NAME, true, passed(windowSamples, spans, limitsKnown)));
    }

    /**
     * What says the tool or the writer lied, so that no reading of the run can vouch for it: a device configured
     * outside the physical ranges of {@link DeviceReadings}, throttle reasons on a device the run did not name (when it
     * named any), or in the measured window but after the run ended.
     */
    private static List<String> untrusted(
            List<AcceleratorDevice> devices,
            Map<Integer, AcceleratorDevice> byIndex,
            List<ThrottleSpan> spans,
            Double durationSeconds) {
        List<String> out = new ArrayList<>();
        devices.stream()
                .sorted(Comparator.comparingInt(AcceleratorDevice::index))
                .forEach(d -> DeviceReadings.implausible(d)
                        .forEach(why -> out.add(device(d.index(), byIndex) + " reported " + why)));
        spans.stream()
                .filter(s -> !devices.isEmpty() && !byIndex.containsKey(s.device()))
                .map(ThrottleSpan::device)
                .distinct()
                .sorted()
                .forEach(d -> out.add("throttle reasons reported for device " + d + ", which the run did not name"));
        spans.stream()
                .filter(s -> durationSeconds != null && s.lastT() > durationSeconds)
                .sorted(Comparator.comparingInt(ThrottleSpan::device).thenComparing(ThrottleSpan::reason))
                .forEach(s -> out.add(String.format(
                        Locale.ROOT,
                        "%s on %s reported in the measured window at %.1f s, after the run ended at %.1f s",
                        s.reason().label(),
                        device(s.device(), byIndex),
                        s.lastT(),
                        durationSeconds)));
        return out;
    }

    private static String passed(long windowSamples, List<ThrottleSpan> spans, boolean limitsKnown) {
        long capped = spans.stream()
                .filter(s -> s.reason() == ThrottleReason.SW_POWER_CAP)
                .mapToLong(ThrottleSpan::samples)
                .sum();
        return (windowSamples == 0
                        ? "no throttle reasons reported"
                        : "no slowdown in " + windowSamples + " throttle-reason samples")
                + (capped > 0 ? "; software power cap in " + capped + " (normal at full load)" : "")
                + (limitsKnown ? "; power limits at their defaults" : "");
    }

    private static String device(int index, Map<Integer, AcceleratorDevice> byIndex) {
        AcceleratorDevice d = byIndex.get(index);
        return "device " + index + (d == null || d.identity() == null ? "" : " (" + d.identity() + ")");
    }

    private static String watts(double w) {
        return w == Math.rint(w) ? String.valueOf((long) w) : String.format(Locale.ROOT, "%.1f", w);
    }
}
