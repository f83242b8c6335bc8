package dev.podium.query.page;

import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.LeaderboardView;
import io.quarkus.qute.TemplateExtension;
import java.util.ArrayList;
import java.util.List;

/** What the leaderboard template repeats: its rows with their extra columns, and its sortable headings. */
@TemplateExtension
public final class LeaderboardLines {

    /**
     * One row as the page shows it: the entry's display values and those of its cost, energy, validity and history
     * columns (null where the page has none). Qute spends microseconds on every section and nested lookup of a page
     * of hundreds of cells, so each row is one record of values with no section but where the markup differs.
     */
    public record Line(
            int rank,
            String deviceLink,
            String deviceLabel,
            boolean knownDevice,
            String sourceClass,
            String source,
            int runs,
            int n,
            String mean,
            String ci,
            String best,
            String cv,
            String perDollar,
            String joules,
            String scaling,
            Integer scalingBase,
            String scalingVerdict,
            String scalingVerdictClass,
            int failingRuns,
            String powerCap,
            String historyLink,
            HardwareUseCell use,
            String costs) {

        static Line of(LeaderboardEntry e, LeaderboardExtras.Columns x) {
            return new Line(
                    e.rank(),
                    Cells.deviceLink(e),
                    e.deviceLabel(),
                    e.knownDevice(),
                    Cells.sourceClass(e),
                    e.source(),
                    e.runs(),
                    e.n(),
                    Cells.meanText(e),
                    Cells.ciText(e),
                    Cells.bestText(e),
                    Cells.cvText(e),
                    x == null ? null : Cells.perDollarText(x),
                    x == null ? null : Cells.joulesText(x),
                    x == null || x.scalingEfficiency() == null || x.scalingEfficiency() == 0
                            ? null
                            : Cells.scalingText(x),
                    x == null ? null : x.scalingBase(),
                    x == null || x.scalingEquivalence() == null
                            ? null
                            : x.scalingEquivalence().text() + ", "
                                    + Formats.runsText(x.scalingEquivalence().runs()),
                    x == null || x.scalingEquivalence() == null
                            ? null
                            : Formats.equivalenceClass(x.scalingEquivalence().call()),
                    x == null ? 0 : x.failingRuns(),
                    x == null ? null : Cells.powerCapText(x.powerCap()),
                    x == null ? null : x.historyLink(),
                    Cells.hardwareUse(x),
                    x == null ? null : Cells.costsText(x));
        }
    }

    /** A sortable heading: the link that sorts by it, its text with the current direction's mark, and its cell's class. */
    public record Heading(String link, String text, boolean numeric, boolean device) {}

    private record Sortable(String column, String heading) {}

    private static final List<Sortable> SORTABLE = List.of(
            new Sortable("device", "Device"),
            new Sortable("runs", "Runs"),
            new Sortable("n", "n"),
            new Sortable("mean", "Mean"),
            new Sortable("ci", "CI95"),
            new Sortable("best", "Best"),
            new Sortable("cv", "CV"));

    private LeaderboardLines() {}

    public static List<Line> lines(LeaderboardView view) {
        LeaderboardExtras extras = view.extras();
        boolean withColumns = extras != null && !extras.columns().isEmpty();
        List<Line> lines = new ArrayList<>(view.entries().size());
        for (int i = 0; i < view.entries().size(); i++) {
            lines.add(Line.of(
                    view.entries().get(i), withColumns ? extras.columns().get(i) : null));
        }
        return lines;
    }

    public static List<Heading> sortHeadings(LeaderboardView view) {
        return SORTABLE.stream()
                .map(s -> new Heading(
                        view.sortLink(s.column()),
                        s.heading() + view.sortMark(s.column()),
                        !s.column().equals("device"),
                        s.column().equals("device")))
                .toList();
    }

    /** Whether the page has cost and energy columns: extras for a metric that is a rate. */
    public static boolean rates(LeaderboardView view) {
        return view.extras() != null && view.extras().rateOf() != null;
    }
}
