package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.model.JobSpec;
import dev.podium.ingest.entity.CampaignEntity;
import dev.podium.ingest.testing.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A command's entity writes and its JDBC event-store append share one JTA transaction: the connection taken from the
 * datasource inside it is the session's own, sees its flushed writes, and commits or rolls back with them.
 */
@QuarkusTest
class EnlistedJdbcIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EnlistedJdbc jdbc;

    @Inject
    CommandAppender appender;

    @Inject
    EntityManager entities;

    @Test
    void aFailureAfterTheAppendRollsBackTheEntityAndTheEvent() {
        Db db = new Db(dataSource);
        UUID campaignId = UUID.randomUUID();
        Envelope created = created(campaignId);

        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
                    campaign(campaignId).persist();
                    jdbc.call(c -> appender.append(c, List.of(created), "command:test"));
                    throw new IllegalStateException("a failure after the append");
                }))
                .hasMessageContaining("a failure after the append");

        assertThat(db.count("SELECT count(*) FROM campaign WHERE campaign_id = ?", campaignId))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", created.eventId()))
                .isZero();
    }

    @Test
    void theAppendRunsOnTheSessionsConnectionSeesItsWritesAndCommitsWithThem() {
        Db db = new Db(dataSource);
        UUID campaignId = UUID.randomUUID();
        Envelope created = created(campaignId);

        QuarkusTransaction.requiringNew().run(() -> {
            campaign(campaignId).persist();
            Number sessionBackend = (Number)
                    entities.createNativeQuery("SELECT pg_backend_pid()").getSingleResult();
            long seen = jdbc.call(c -> {
                assertThat(single(c, "SELECT pg_backend_pid()")).isEqualTo(sessionBackend.longValue());
                return single(c, "SELECT count(*) FROM campaign WHERE campaign_id = '" + campaignId + "'");
            });
            assertThat(seen).isEqualTo(1);
            jdbc.call(c -> appender.append(c, List.of(created), "command:test"));
            // Until the commit, a connection outside this transaction (another thread's) sees neither write.
            assertThat(CompletableFuture.supplyAsync(
                                    () -> db.count("SELECT count(*) FROM campaign WHERE campaign_id = ?", campaignId))
                            .join())
                    .isZero();
        });

        assertThat(db.count("SELECT count(*) FROM campaign WHERE campaign_id = ?", campaignId))
                .isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", created.eventId()))
                .isEqualTo(1);
    }

    @Test
    void enlistedWorkCannotCommitOnItsOwnAndItsTransactionRollsBack() {
        Db db = new Db(dataSource);
        UUID campaignId = UUID.randomUUID();
        AtomicReference<Throwable> refused = new AtomicReference<>();

        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
                    campaign(campaignId).persist();
                    try {
                        jdbc.call(c -> {
                            c.commit();
                            return null;
                        });
                    } catch (EnlistedJdbc.Failure e) {
                        refused.set(e);
                    }
                }))
                .isInstanceOf(QuarkusTransactionException.class);

        assertThat(refused.get()).isNotNull();
        assertThat(db.count("SELECT count(*) FROM campaign WHERE campaign_id = ?", campaignId))
                .isZero();
    }

    @Test
    void enlistedWorkNeedsATransaction() {
        assertThatThrownBy(() -> jdbc.call(c -> null)).isInstanceOf(jakarta.transaction.TransactionalException.class);
    }

    private static long single(java.sql.Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static CampaignEntity campaign(UUID campaignId) {
        CampaignEntity row = new CampaignEntity();
        row.campaignId = campaignId;
        row.name = "enlisted";
        row.spec = "{\"benchmark\": \"enlisted\"}";
        row.pools = new String[] {"enlisted"};
        row.lastIssuedAt = Instant.now();
        row.actor = "test";
        return row;
    }

    private static Envelope created(UUID campaignId) {
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.campaign(campaignId),
                1,
                null,
                Instant.now(),
                new CampaignCreated(campaignId, "enlisted", spec(), List.of("enlisted"), null, "test"));
    }

    private static JobSpec spec() {
        return new JobSpec("enlisted", "reference", null, null, Map.of(), Map.of(), 1, 0, 60, null, 1, 1, null);
    }
}
