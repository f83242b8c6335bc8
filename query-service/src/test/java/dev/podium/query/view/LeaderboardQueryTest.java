package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeaderboardQueryTest {

    @Test
    void aKeyLinkIsTheLinkOfTheSameQueryUnderThatKeyWithFailingRunsLeftOutAndTheMarginKept() {
        List<LeaderboardQuery> queries = List.of(
                new LeaderboardQuery(
                        "resnet50",
                        "k1",
                        "throughput",
                        "training",
                        "bf16",
                        "32",
                        "4",
                        "2.4.0",
                        "measured",
                        "mean",
                        "desc",
                        LeaderboardQuery.INCLUDE_FAILING,
                        "2.5"),
                new LeaderboardQuery("x&key=y#z", null, null, null, null, null, null, null, null, "device", "asc"),
                new LeaderboardQuery(
                        "bert large", "k1", "time to train", null, null, null, null, null, null, null, null),
                new LeaderboardQuery(null, null, null, null, null, null, null, null, null, null, null));
        for (LeaderboardQuery q : queries) {
            for (String key : List.of("0b8738e774270cde", "a b&c=d")) {
                assertThat(q.keyLinks().apply(key))
                        .isEqualTo(new LeaderboardQuery(
                                        q.benchmark(),
                                        key,
                                        q.metric(),
                                        q.scenario(),
                                        q.precision(),
                                        q.batch(),
                                        q.workers(),
                                        q.software(),
                                        q.source(),
                                        q.sort(),
                                        q.dir(),
                                        null,
                                        q.margin())
                                .link()
                                .build());
            }
        }
    }
}
