package dev.podium.query.page;

import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.Links;
import io.quarkus.qute.TemplateExtension;

/**
 * Display values of the rows of leaderboards and comparisons, as properties ({@code {e.meanText}}): a page has hundreds of
 * cells, and Qute resolves a property directly where a {@code {fmt:num(e.mean)}} call first evaluates its parameters
 * asynchronously. Each is the {@link Formats} method of the same name.
 */
@TemplateExtension
public final class Cells {

    private Cells() {}

    public static String deviceLink(LeaderboardEntry e) {
        return Links.device(e.deviceId());
    }

    public static String sourceClass(LeaderboardEntry e) {
        return Formats.sourceClass(e.source());
    }

    public static String meanText(LeaderboardEntry e) {
        return Formats.num(e.mean());
    }

    public static String bestText(LeaderboardEntry e) {
        return Formats.num(e.best());
    }

    /** Half the CI95, or a dash for a single run, whose interval says nothing about the spread between runs. */
    public static String ciText(LeaderboardEntry e) {
        return e.runs() > 1 ? Formats.ci(e.ci95Low(), e.ci95High()) : "—";
    }

    /** The CV between runs, or a dash for a single run. */
    public static String cvText(LeaderboardEntry e) {
        return e.runs() > 1 ? Formats.pct(e.cv()) : "—";
    }

    /** Samples per dollar, or null where no price is configured or the metric is no rate. */
    public static String perDollarText(LeaderboardExtras.Columns x) {
        return x.perDollar() == null ? null : Formats.num(x.perDollar());
    }

    /** Joules per sample, or null without power samples. */
    public static String joulesText(LeaderboardExtras.Columns x) {
        return x.joulesPerUnit() == null ? null : Formats.num(x.joulesPerUnit());
    }

    public static String scalingText(LeaderboardExtras.Columns x) {
        return Formats.pct(x.scalingEfficiency());
    }
}
