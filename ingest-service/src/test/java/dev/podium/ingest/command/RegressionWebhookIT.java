package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.model.ComparisonKey;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Histories;
import dev.podium.ingest.testing.TestAgent;
import dev.podium.ingest.testing.WebhookReceiver;
import dev.podium.ingest.testing.WebhookReceiver.Delivery;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** New regressions reach a real HTTP receiver from ingest's command side: at least once, with a stable id. */
@QuarkusTest
class RegressionWebhookIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aNewRegressionIsPostedOnceWithItsIdAndStep() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hook");
        ComparisonKey key = Histories.freshKey();
        // The first run at the new level is stored before the others: runs travel on partitions of their own, and a
        // step
        // found while it was still on its way would name the first of them that arrived.
        List<UUID> runs = new ArrayList<>(Histories.send(db, agent, key, 0, 21, i -> i < 20 ? 100.0 : 90.0));
        runs.addAll(Histories.send(db, agent, key, 21, 9, i -> 90.0));

        await().atMost(WAIT).until(() -> WebhookReceiver.forKey(key.id()).size() == 1);
        Delivery d = WebhookReceiver.forKey(key.id()).get(0);
        assertThat(d.body().path("type").asText()).isEqualTo("podium.regression");
        assertThat(d.body().path("id").asText()).isEqualTo(d.idHeader());
        assertThat(d.body().path("change").path("run_id").asText())
                .isEqualTo(runs.get(20).toString());
        assertThat(d.body().path("change").path("kind").asText()).isEqualTo("regression");
        assertThat(d.body().path("change").path("ratio").asDouble()).isBetween(0.89, 0.91);
        await().atMost(WAIT)
                .until(() -> db.one("SELECT delivered_at FROM regression_delivery WHERE id = ?::uuid", d.idHeader())
                        != null);

        // More runs at the new level: the history is recomputed, its step is the same one and is not posted again.
        Histories.send(db, agent, key, 30, 5, i -> 90.0);
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM history_touched") == 0
                        && db.count("SELECT points FROM proj_history WHERE key_id = ?", key.id()) == 35);
        // The updater queues a regression in the transaction that stores it, and only queued rows are posted: the
        // one row, delivered, is all there is to post.
        assertThat(db.rows(
                        "SELECT id::text, delivered_at IS NOT NULL FROM regression_delivery"
                                + " WHERE payload->'change'->>'key_id' = ?",
                        key.id()))
                .containsExactly(List.of(d.idHeader(), true));
        assertThat(WebhookReceiver.forKey(key.id())).hasSize(1);
    }

    @Test
    void aFailedDeliveryIsRetriedWithTheSameId() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hook-retry");
        ComparisonKey key = Histories.freshKey();
        WebhookReceiver.failNext(2);
        Histories.send(db, agent, key, 30, i -> i < 20 ? 100.0 : 90.0);

        await().atMost(WAIT)
                .until(() -> WebhookReceiver.forKey(key.id()).stream().anyMatch(Delivery::accepted));
        List<Delivery> tries = WebhookReceiver.forKey(key.id());
        assertThat(tries).extracting(Delivery::accepted).containsExactly(false, false, true);
        assertThat(tries)
                .extracting(Delivery::idHeader)
                .containsOnly(tries.get(0).idHeader());
        assertThat(tries)
                .extracting(t -> t.body().path("id").asText())
                .containsOnly(tries.get(0).idHeader());
        await().atMost(WAIT)
                .until(() -> db.one(
                                "SELECT delivered_at FROM regression_delivery WHERE id = ?::uuid",
                                tries.get(0).idHeader())
                        != null);
        assertThat(db.one(
                        "SELECT attempts FROM regression_delivery WHERE id = ?::uuid",
                        tries.get(0).idHeader()))
                .isEqualTo(3);
    }

    @Test
    void improvementsAreNotPosted() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hook-better");
        ComparisonKey key = Histories.freshKey();
        Histories.send(db, agent, key, 30, i -> i < 20 ? 100.0 : 110.0);
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM proj_change_point WHERE key_id = ?", key.id()) == 1);
        // Stored with its change point, in one transaction: no row now means nothing will ever be posted.
        assertThat(db.count(
                        "SELECT count(*) FROM regression_delivery WHERE payload->'change'->>'key_id' = ?", key.id()))
                .isZero();
        assertThat(WebhookReceiver.forKey(key.id())).isEmpty();
    }
}
