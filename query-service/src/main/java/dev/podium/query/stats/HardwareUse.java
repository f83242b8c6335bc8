package dev.podium.query.stats;

import dev.podium.events.device.Peaks;
import dev.podium.events.model.StudentT;
import dev.podium.query.data.HardwareUseRow;
import java.util.List;

/**
 * What share of the hardware a leaderboard row's work reaches, from the run rows' sums ingest keeps: the share of the
 * matmul rate measured on the runs' own hosts, MFU against the device's dense datasheet peak and MBU against its peak
 * bandwidth, each the mean over the runs' repetitions with a Student-t 95% interval, beside its denominator. Apart from
 * {@code stats/Efficiency} (cost and energy). {@code basis} is how the work per unit was stated (COMPUTED, DECLARED or
 * MIXED); {@code noPeak} why there is no MFU, where there is none.
 */
public record HardwareUse(
        String basis,
        Ratio share,
        Double matmulTflops,
        Ratio mfu,
        Double peakTflops,
        String noPeak,
        Ratio mbu,
        Double peakTbps) {

    /** A mean of per-repetition ratios and its 95% interval (equal to the mean with one repetition). */
    public record Ratio(double mean, double low, double high, int n) {

        static Ratio of(HardwareUseRow.Sums s) {
            if (s.n() == 0) {
                return null;
            }
            double mean = s.sum() / s.n();
            if (s.n() == 1) {
                return new Ratio(mean, mean, mean, 1);
            }
            double variance = Math.max(0, (s.sumsq() - s.n() * mean * mean) / (s.n() - 1));
            double half = StudentT.quantile975(s.n() - 1) * Math.sqrt(variance / s.n());
            return new Ratio(mean, mean - half, mean + half, s.n());
        }
    }

    /** The hardware use of one device's rows (counted runs, and failing ones when {@code including}); null: none. */
    public static HardwareUse of(String deviceId, List<HardwareUseRow> rows, boolean including) {
        List<HardwareUseRow> used = rows.stream()
                .filter(r -> r.deviceId().equals(deviceId) && (r.valid() || including))
                .toList();
        if (used.isEmpty()) {
            return null;
        }
        HardwareUseRow.Sums none = new HardwareUseRow.Sums(0, 0, 0);
        HardwareUseRow.Sums share = none;
        HardwareUseRow.Sums mfu = none;
        HardwareUseRow.Sums mbu = none;
        int matmulRuns = 0;
        double matmulSum = 0;
        for (HardwareUseRow r : used) {
            share = share.plus(r.share());
            mfu = mfu.plus(r.mfu());
            mbu = mbu.plus(r.mbu());
            matmulRuns += r.matmulRuns();
            matmulSum += r.matmulSum();
        }
        String basis = used.stream().map(HardwareUseRow::basis).distinct().count() == 1
                ? used.get(0).basis()
                : "MIXED";
        Double peak = used.stream()
                .map(HardwareUseRow::peakTflops)
                .filter(p -> p != null)
                .findFirst()
                .orElse(null);
        Double bandwidth = used.stream()
                .map(HardwareUseRow::peakTbps)
                .filter(p -> p != null)
                .findFirst()
                .orElse(null);
        return new HardwareUse(
                basis,
                Ratio.of(share),
                matmulRuns == 0 ? null : matmulSum / matmulRuns,
                Ratio.of(mfu),
                peak,
                peak == null ? noPeak(deviceId) : null,
                Ratio.of(mbu),
                bandwidth);
    }

    /** Why a device has no MFU: the peak table's reason, or that it gives no peak in the key's precision. */
    static String noPeak(String deviceId) {
        return Peaks.of(deviceId) instanceof Peaks.Lookup.NoPeak n
                ? n.reason()
                : "no dense datasheet peak in this key's precision";
    }

    public boolean declared() {
        return "DECLARED".equals(basis) || "MIXED".equals(basis);
    }
}
