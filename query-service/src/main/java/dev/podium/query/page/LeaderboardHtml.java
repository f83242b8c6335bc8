package dev.podium.query.page;

import dev.podium.query.view.KeyOption;
import dev.podium.query.view.LeaderboardView;
import java.util.List;

/**
 * The two parts of a leaderboard page that carry a link per item and change with every query: the list of keys that match
 * the filters (up to 200, each linking to its own leaderboard) and the sortable column headings. Written in one pass
 * like {@link MatrixHtml}, with the same markup and escaping the template gave them: as template loops they were most of
 * the expressions a leaderboard page still evaluated per request.
 */
final class LeaderboardHtml {

    /** A sortable column: its sort name, its heading, and the heading cell's opening tag. */
    private record Sortable(String column, String heading, String th) {
    }

    private static final List<Sortable> SORTABLE = List.of(new Sortable("device", "Device", "<th>"),
            new Sortable("runs", "Runs", "<th class=\"num\">"), new Sortable("n", "n", "<th class=\"num\">"),
            new Sortable("mean", "Mean", "<th class=\"num\">"), new Sortable("ci", "CI95", "<th class=\"num\">"),
            new Sortable("best", "Best", "<th class=\"num\">"), new Sortable("cv", "CV", "<th class=\"num\">"));

    private LeaderboardHtml() {
    }

    /** The keys as a list, the one shown in bold, the others as links. */
    static String keys(LeaderboardView view) {
        StringBuilder out = new StringBuilder(32 + view.keys().size() * 320);
        out.append("<ul class=\"keys\">\n");
        for (KeyOption k : view.keys()) {
            if (k.selected()) {
                Html.escaped(out.append("<li><strong>"), k.canonical()).append("</strong></li>\n");
            } else {
                Html.escaped(out.append("<li><a href=\""), k.link()).append("\">");
                Html.escaped(out, k.canonical()).append("</a></li>\n");
            }
        }
        return out.append("</ul>").toString();
    }

    /** The headings from Device to CV, one a line, each sortable one linking to its sort; the Source heading among them. */
    static String sortHeadings(LeaderboardView view) {
        StringBuilder out = new StringBuilder(1400);
        for (Sortable s : SORTABLE) {
            Html.escaped(out.append(s.th()).append("<a href=\""), view.sortLink(s.column())).append("\">").append(s.heading());
            Html.escaped(out, view.sortMark(s.column())).append("</a></th>\n");
            if (s.column().equals("device")) {
                out.append("<th>Source</th>\n");
            }
        }
        return out.toString();
    }
}
