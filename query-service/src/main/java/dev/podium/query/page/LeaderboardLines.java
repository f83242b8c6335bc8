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

    /** One row: the entry and its cost, energy, validity and history columns (null where the page has none). */
    public record Line(LeaderboardEntry e, LeaderboardExtras.Columns x) {}

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
            lines.add(new Line(
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
