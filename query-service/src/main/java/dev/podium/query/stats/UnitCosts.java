package dev.podium.query.stats;

import dev.podium.query.data.EnergyRow;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Energy and cost per unit of work with their intervals, from one energy cell's sums: per run x = joules per unit over
 * the measured window and y = device-seconds per unit. Cost per million units under a basis is the per-run figure
 * 10⁶ × (price per device-hour ÷ 3600 × y + price per kWh ÷ 3.6·10⁶ × x), so its mean and variance follow from the sums
 * of x, y, their squares and their product, whatever prices are configured now.
 */
public final class UnitCosts {

    private static final MathContext MC = MathContext.DECIMAL128;
    private static final double JOULES_PER_KWH = 3.6e6;

    /** One basis's cost per million units, at the prices it was computed from. */
    public record Cost(PriceBasis basis, double pricePerDeviceHour, Double pricePerKwh, RunInterval perMillion) {}

    private UnitCosts() {}

    /** Joules per unit over the cell's runs (the counted ones, and those that failed a check when {@code including}). */
    public static RunInterval joules(EnergyRow row, boolean including) {
        EnergyRow.Sums s = row.sums(including);
        return s.runs() == 0 ? null : combined(s, 0, 1);
    }

    /**
     * Cost per million units under each basis that has a price for the device: {@code onDemand} and {@code owned} per
     * device-hour (null where not configured), owned hardware also paying {@code perKwh} for the measured energy.
     */
    public static List<Cost> perMillion(
            EnergyRow row, boolean including, Double onDemand, Double owned, double perKwh) {
        EnergyRow.Sums s = row.sums(including);
        List<Cost> out = new ArrayList<>();
        if (s.runs() == 0) {
            return out;
        }
        if (onDemand != null && onDemand > 0) {
            out.add(new Cost(PriceBasis.ON_DEMAND, onDemand, null, combined(s, 1e6 * onDemand / 3600, 0)));
        }
        if (owned != null && owned > 0) {
            RunInterval c = combined(s, 1e6 * owned / 3600, 1e6 * perKwh / JOULES_PER_KWH);
            out.add(new Cost(PriceBasis.OWNED, owned, perKwh, c));
        }
        return out;
    }

    /** The mean and interval of a·y + b·x over the runs. */
    static RunInterval combined(EnergyRow.Sums s, double a, double b) {
        BigDecimal n = BigDecimal.valueOf(s.runs());
        BigDecimal ba = new BigDecimal(Double.toString(a));
        BigDecimal bb = new BigDecimal(Double.toString(b));
        BigDecimal sum = ba.multiply(s.deviceSeconds()).add(bb.multiply(s.joules()));
        BigDecimal squares = ba.multiply(ba)
                .multiply(s.deviceSecondsSq())
                .add(bb.multiply(bb).multiply(s.joulesSq()))
                .add(BigDecimal.valueOf(2).multiply(ba).multiply(bb).multiply(s.joulesDeviceSeconds()));
        double mean = sum.divide(n, MC).doubleValue();
        if (s.runs() < 2) {
            return RunInterval.of(s.runs(), mean, 0);
        }
        BigDecimal centred = squares.subtract(sum.multiply(sum).divide(n, MC));
        double variance = centred.divide(n.subtract(BigDecimal.ONE), MC).doubleValue();
        return RunInterval.of(s.runs(), mean, variance);
    }
}
