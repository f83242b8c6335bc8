package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.view.KeyOption;
import dev.podium.query.view.LeaderboardQuery;
import dev.podium.query.view.LeaderboardView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeaderboardHtmlTest {

    private static LeaderboardView view(List<KeyOption> keys, String sort, String dir) {
        return new LeaderboardView(new LeaderboardQuery("resnet50", "k1", "throughput", null, null, null, null, null, null, sort, dir),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), keys, keys.get(0), "samples/s",
                "HIGHER_IS_BETTER", sort, dir, List.of());
    }

    @Test
    void listsTheShownKeyInBoldAndTheOthersAsEscapedLinks() {
        String html = LeaderboardHtml.keys(view(List.of(new KeyOption("k1", "model=a;precision=bf16", Map.of(), true, "/leaderboard?key=k1"),
                new KeyOption("k2", "model=<b>\"x\"</b>", Map.of(), false, "/leaderboard?benchmark=r&key=k2")), "mean", "desc"));

        assertThat(html).isEqualTo("<ul class=\"keys\">\n<li><strong>model=a;precision=bf16</strong></li>\n"
                + "<li><a href=\"/leaderboard?benchmark=r&amp;key=k2\">model=&lt;b&gt;&quot;x&quot;&lt;/b&gt;</a></li>\n</ul>");
    }

    @Test
    void eachSortableHeadingLinksToItsSortAndTheCurrentOneShowsItsDirection() {
        LeaderboardView view = view(List.of(new KeyOption("k1", "model=a", Map.of(), true, "/leaderboard?key=k1")), "mean", "desc");

        String html = LeaderboardHtml.sortHeadings(view);

        assertThat(html).startsWith("<th><a href=\"" + view.sortLink("device").replace("&", "&amp;") + "\">Device</a></th>\n"
                + "<th>Source</th>\n<th class=\"num\"><a href=\"");
        assertThat(html).contains("<th class=\"num\"><a href=\"" + view.sortLink("mean").replace("&", "&amp;") + "\">Mean &#9660;</a></th>\n");
        assertThat(html).contains("sort=mean&amp;dir=asc\">Mean &#9660;");
        assertThat(html.split("<th", -1)).hasSize(9);
        assertThat(html).endsWith("\">CV</a></th>\n");
    }
}
