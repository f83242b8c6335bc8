package dev.podium.query.page;

import dev.podium.query.stats.RunInterval;
import dev.podium.query.stats.UnitCosts;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How energy and cost per unit read in a cell: "≈" because the energy is integrated from power samples (no hardware
 * energy counter is read yet), the mean, and half its 95% interval over the runs where there are two or more.
 */
final class EnergyTexts {

    private EnergyTexts() {}

    /** Joules per unit, e.g. {@code ≈ 8.2 ± 0.4}; null without a cell. */
    static String joules(RunInterval i) {
        return i == null ? null : "≈ " + interval(i);
    }

    /** Each priced basis's cost per million units, e.g. {@code cloud on-demand $1.20 ± 0.05}; null where none is priced. */
    static String costs(List<UnitCosts.Cost> costs) {
        if (costs == null || costs.isEmpty()) {
            return null;
        }
        return costs.stream()
                .map(c -> c.basis().label() + " $" + interval(c.perMillion()))
                .collect(Collectors.joining("; "));
    }

    private static String interval(RunInterval i) {
        String mean = Formats.num(i.mean());
        return i.low() == null ? mean : mean + " " + Formats.ci(i.low(), i.high());
    }
}
