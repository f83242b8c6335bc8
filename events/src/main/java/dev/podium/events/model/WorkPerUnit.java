package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/**
 * What one unit of a rate metric costs the hardware, as the workload states it: floating-point operations per unit (a
 * sample, a token) and, for inference, bytes read per output token (parameters plus key/value cache). {@code basis} says
 * where the figures come from, which pages show.
 */
public record WorkPerUnit(
        @Nullable @NonNegative Double flops,
        @Nullable @NonNegative Double bytes,
        Basis basis) {

    /**
     * The metric of the shipped mamf workload, the best sustained matmul rate per accelerator in TFLOP/s: the
     * denominator of the share of measured matmul for other runs on the same host.
     */
    public static final String MATMUL_METRIC = "matmul_tflops";

    public enum Basis {
        /** By a shipped workload, from its model's shape. */
        COMPUTED,
        /** By a job spec (6N per token for a dense transformer, say). */
        DECLARED
    }
}
