package dev.podium.events.device;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Accelerators' datasheet peaks, keyed by the canonical ids of {@link DeviceAliases}: dense matrix FLOP/s per precision
 * and memory bandwidth, each figure with where it was read, when, and whether it is dense. Vendors print sparse (2:4)
 * figures as headlines and some clocks shipped below plan, so only dense figures are the denominator of an efficiency;
 * a figure from a third-party page is not taken. A device not in the table, and every CPU, has no peak, and says why.
 */
public final class Peaks {

    /** The number formats a peak is given for. */
    public enum Precision {
        BF16,
        FP8,
        INT8
    }

    /** Where and when a figure was read. */
    public record Source(String document, YearMonth read) {}

    /** A peak of matrix throughput in one precision; {@code dense} false would mark a 2:4-sparsity figure. */
    public record Flops(Precision precision, double teraFlops, boolean dense, Source source, String note) {}

    /** Peak memory bandwidth, in TB/s (10^12 bytes a second). */
    public record Bandwidth(double teraBytesPerSecond, Source source) {}

    /** A device's peaks. */
    public record DevicePeaks(String deviceId, List<Flops> flops, Bandwidth bandwidth) {

        /** The dense peak in {@code precision}, or empty where the datasheet gives none. */
        public Optional<Flops> dense(Precision precision) {
            return flops.stream()
                    .filter(f -> f.precision() == precision && f.dense())
                    .findFirst();
        }
    }

    /** What a device has: its peaks, or the reason it has none. */
    public sealed interface Lookup {

        record Found(DevicePeaks peaks) implements Lookup {}

        record NoPeak(String reason) implements Lookup {}
    }

    private static final YearMonth READ = YearMonth.of(2026, 12);

    private static final Map<String, DevicePeaks> TABLE = table(List.of(
            // id, where every figure of the row was read, memory TB/s, then dense TFLOPS in BF16, FP8 and INT8
            row("nvidia-a100-sxm-80gb", "NVIDIA A100 product page", 2.0, 312, null, null),
            row(
                    "nvidia-h100-sxm-80gb",
                    "NVIDIA H100 product page (its datasheet doubles the figures for 2:4 sparsity)",
                    3.35,
                    989,
                    1979.0,
                    null),
            row("nvidia-h200-sxm-141gb", "NVIDIA H200 product page", 4.8, 989, 1979.0, null),
            row("amd-mi300x", "AMD Instinct MI300X product page", 5.3, 1307.4, 2614.9, null),
            row("intel-gaudi2", "Intel Gaudi 2 white paper", 2.46, 432, 865.0, null),
            gaudi3(),
            row("google-tpu-v5e", "Google Cloud TPU v5e page", 0.819, 197, null, 393.0),
            row("google-tpu-v5p", "Google Cloud TPU v5p page", 2.765, 459, null, 918.0),
            row("google-tpu-v6e", "Google Cloud TPU v6e page", 1.638, 918, null, 1836.0)));

    private Peaks() {}

    /** The peaks of a canonical device id, or why there are none. */
    public static Lookup of(String deviceId) {
        DevicePeaks found = deviceId == null ? null : TABLE.get(deviceId);
        if (found != null) {
            return new Lookup.Found(found);
        }
        if (DeviceAliases.known(deviceId) && DeviceAliases.byId(deviceId).isEmpty()) {
            return new Lookup.NoPeak(
                    "a CPU has no datasheet peak: compare it with the matmul rate measured on its host");
        }
        if (DeviceAliases.byId(deviceId).isPresent()) {
            return new Lookup.NoPeak(
                    "no dense peak of " + DeviceAliases.byId(deviceId).get().label()
                            + " in the peak table (a variant it does not state, or none read yet)");
        }
        return new Lookup.NoPeak("unknown device: peaks are kept for the canonical devices of the alias table only");
    }

    /** Every device of the table. */
    public static List<DevicePeaks> all() {
        return List.copyOf(TABLE.values());
    }

    private static DevicePeaks row(
            String id, String document, double teraBytesPerSecond, double bf16, Double fp8, Double int8) {
        Source source = new Source(document, READ);
        List<Flops> flops = new ArrayList<>();
        flops.add(new Flops(Precision.BF16, bf16, true, source, null));
        if (fp8 != null) {
            flops.add(new Flops(Precision.FP8, fp8, true, source, null));
        }
        if (int8 != null) {
            flops.add(new Flops(Precision.INT8, int8, true, source, null));
        }
        return new DevicePeaks(id, List.copyOf(flops), new Bandwidth(teraBytesPerSecond, source));
    }

    /** Gaudi 3 shipped with its matrix engines clocked below the white paper's plan: its peak is the shipping one. */
    private static DevicePeaks gaudi3() {
        Source source = new Source("Intel Gaudi 3 white paper; clock from the ml-engineering notes", READ);
        String note =
                "at the shipping 1,600 MHz matrix-engine clock; 1,835 as specified; FP8 as BF16 in the white paper";
        return new DevicePeaks(
                "intel-gaudi3",
                List.of(
                        new Flops(Precision.BF16, 1677, true, source, note),
                        new Flops(Precision.FP8, 1677, true, source, note)),
                new Bandwidth(3.7, source));
    }

    private static Map<String, DevicePeaks> table(List<DevicePeaks> devices) {
        return devices.stream().collect(Collectors.toUnmodifiableMap(DevicePeaks::deviceId, Function.identity()));
    }
}
