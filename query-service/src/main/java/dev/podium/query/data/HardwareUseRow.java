package dev.podium.query.data;

/**
 * One row of proj_hardware_use_cell: a device's hardware-use sums under one key and metric, over its counted runs
 * ({@code valid}) or those that failed a check: per repetition shares of the host's measured matmul rate, MFU and MBU as
 * n, sum and sum of squares, and the denominators taken (the runs' matmul rates summed, the datasheet peaks).
 */
public record HardwareUseRow(
        String keyId,
        String deviceId,
        boolean valid,
        int runs,
        String basis,
        int matmulRuns,
        double matmulSum,
        Sums share,
        Double peakTflops,
        Sums mfu,
        Double peakTbps,
        Sums mbu) {

    /** n, sum and sum of squares of per-repetition ratios. */
    public record Sums(int n, double sum, double sumsq) {

        public Sums plus(Sums o) {
            return new Sums(n + o.n, sum + o.sum, sumsq + o.sumsq);
        }
    }
}
