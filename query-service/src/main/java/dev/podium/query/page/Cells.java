package dev.podium.query.page;

import dev.podium.query.data.CellQueries;
import dev.podium.query.stats.HardwareUse;
import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.Links;

/**
 * Display values of a leaderboard's rows, computed once per row into {@link LeaderboardLines.Line}: each is the
 * {@link Formats} method of the same name.
 */
final class Cells {

    private Cells() {}

    static String deviceLink(LeaderboardEntry e) {
        return Links.device(e.deviceId());
    }

    static String sourceClass(LeaderboardEntry e) {
        return Formats.sourceClass(e.source());
    }

    static String meanText(LeaderboardEntry e) {
        return Formats.num(e.mean());
    }

    static String bestText(LeaderboardEntry e) {
        return Formats.num(e.best());
    }

    /** Half the CI95, or a dash for a single run, whose interval says nothing about the spread between runs. */
    static String ciText(LeaderboardEntry e) {
        return e.runs() > 1 ? Formats.ci(e.ci95Low(), e.ci95High()) : "—";
    }

    /** The CV between runs, or a dash for a single run. */
    static String cvText(LeaderboardEntry e) {
        return e.runs() > 1 ? Formats.pct(e.cv()) : "—";
    }

    /** Samples per dollar, or null where no price is configured or the metric is no rate. */
    static String perDollarText(LeaderboardExtras.Columns x) {
        return x.perDollar() == null ? null : Formats.num(x.perDollar());
    }

    /** Joules per sample over the measured window with its interval, or null without power samples there. */
    static String joulesText(LeaderboardExtras.Columns x) {
        return EnergyTexts.joules(x.joulesInterval());
    }

    /** Cost per million units under each priced basis, or null where none is priced or no energy was measured. */
    static String costsText(LeaderboardExtras.Columns x) {
        return EnergyTexts.costs(x.costsPerMillion());
    }

    /** The hardware-use columns of a row as the page writes them; null where its runs state no work. */
    static HardwareUseCell hardwareUse(LeaderboardExtras.Columns x) {
        HardwareUse u = x == null ? null : x.hardwareUse();
        if (u == null) {
            return null;
        }
        return new HardwareUseCell(
                ratio(u.share()),
                u.matmulTflops() == null ? null : "of " + Formats.num(u.matmulTflops()) + " TFLOP/s measured",
                ratio(u.mfu()),
                u.peakTflops() == null ? null : "of " + Formats.num(u.peakTflops()) + " TFLOP/s peak",
                u.noPeak(),
                ratio(u.mbu()),
                u.peakTbps() == null ? null : "of " + Formats.num(u.peakTbps()) + " TB/s peak",
                u.declared());
    }

    /** A mean share and half its 95% interval, in percent: {@code 52.1% ± 3.9%}. */
    static String ratio(HardwareUse.Ratio r) {
        if (r == null) {
            return null;
        }
        String mean = Formats.pct(r.mean());
        return r.n() < 2 ? mean : mean + " ± " + Formats.pct((r.high() - r.low()) / 2);
    }

    static String scalingText(LeaderboardExtras.Columns x) {
        return Formats.pct(x.scalingEfficiency());
    }

    /** "1 run at 450 W of its 700 W default" for runs under a lowered power limit (the lowest), or null when none. */
    static String powerCapText(CellQueries.PowerCap cap) {
        if (cap == null) {
            return null;
        }
        return cap.runs() + (cap.runs() == 1 ? " run" : " runs") + " at " + Formats.num(cap.limitWatts()) + " W of its "
                + Formats.num(cap.defaultWatts()) + " W default";
    }
}
