package dev.podium.ingest.identity;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.store.AgentKeyStore;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.jboss.logging.Logger;

/**
 * Keeps the broker's agent identities in step with the agent keys: creates what a key that verifies records lacks (a
 * key issued while the broker was down gets its identity here), removes the identities of revoked keys and of retired
 * ones past their grace. Issue and revoke do their part once they commit ({@link KeyIssued}, {@link KeyRevoked});
 * whatever of it failed, the next interval does. The keys are only read here: a broker that cannot be reached changes no key.
 */
@ApplicationScoped
public class IdentityReconciler {

    private static final Logger LOG = Logger.getLogger(IdentityReconciler.class);

    private final AgroalDataSource dataSource;
    private final AgentKeyStore keys;
    private final BrokerIdentities broker;
    private final IngestConfig config;

    public IdentityReconciler(
            AgroalDataSource dataSource, AgentKeyStore keys, BrokerIdentities broker, IngestConfig config) {
        this.dataSource = dataSource;
        this.keys = keys;
        this.broker = broker;
        this.config = config;
    }

    public boolean enabled() {
        return config.agentIdentities().enabled();
    }

    @Scheduled(
            identity = "agent-identities",
            every = "${podium.ingest.agent-identities.reconcile-interval:30s}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void onInterval() {
        if (!enabled()) {
            return;
        }
        Map<String, String> wanted;
        try (Connection c = dataSource.getConnection()) {
            wanted = keys.kafkaIdentities(c);
        } catch (SQLException e) {
            LOG.warn("reading the agent keys failed; the Kafka identities are reconciled at the next interval", e);
            return;
        }
        reconcile(wanted);
    }

    /** Makes the broker match {@code wanted} (key id to Kafka password); false, logged, when the broker did not answer. */
    public boolean reconcile(Map<String, String> wanted) {
        try {
            IdentityPlan plan = IdentityPlan.of(
                    wanted,
                    broker.present(),
                    config.topics(),
                    config.agentIdentities().producerByteRate());
            if (!plan.isEmpty()) {
                apply(plan);
                LOG.infof("agent Kafka identities reconciled: %s", plan.keyIds());
            }
            return true;
        } catch (ExecutionException | KafkaException e) {
            LOG.warnf("the broker's agent identities could not be reconciled, tried again at the next interval: %s", e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A key was issued, fired in the issuing transaction. */
    public record KeyIssued(String keyId, String kafkaPassword) {}

    /** A key was revoked, fired in the revoking transaction. */
    public record KeyRevoked(String keyId) {}

    /**
     * Creates the identity of a key once its issue committed (never for a key that was not stored); a broker that does
     * not answer leaves it to the next interval.
     */
    void provision(@Observes(during = TransactionPhase.AFTER_SUCCESS) KeyIssued key) {
        if (enabled()) {
            attempt("create", key.keyId(), () -> {
                broker.createAcls(AgentAcls.of(key.keyId(), config.topics()));
                broker.setProducerByteRate(key.keyId(), config.agentIdentities().producerByteRate());
                broker.upsertCredential(key.keyId(), key.kafkaPassword());
            });
        }
    }

    /** Removes a revoked key's identity once the revocation committed; a broker that does not answer leaves it to the next interval. */
    void remove(@Observes(during = TransactionPhase.AFTER_SUCCESS) KeyRevoked key) {
        if (enabled()) {
            attempt("remove", key.keyId(), () -> broker.remove(key.keyId()));
        }
    }

    private void apply(IdentityPlan plan) throws ExecutionException, InterruptedException {
        for (String keyId : plan.remove()) {
            broker.remove(keyId);
        }
        // a login is created last, so it never exists without its ACLs' bounds and its quota
        broker.createAcls(plan.acls());
        for (String keyId : plan.quotas()) {
            broker.setProducerByteRate(keyId, config.agentIdentities().producerByteRate());
        }
        for (Map.Entry<String, String> c : plan.credentials().entrySet()) {
            broker.upsertCredential(c.getKey(), c.getValue());
        }
    }

    private interface BrokerCall {
        void run() throws ExecutionException, InterruptedException;
    }

    private void attempt(String what, String keyId, BrokerCall call) {
        try {
            call.run();
        } catch (ExecutionException | KafkaException e) {
            LOG.warnf(
                    "could not %s the Kafka identity of key %s now; the reconciler does it later: %s", what, keyId, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
