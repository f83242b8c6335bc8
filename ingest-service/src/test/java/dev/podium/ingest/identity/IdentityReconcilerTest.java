package dev.podium.ingest.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.podium.ingest.config.IngestConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A broker that cannot be reached: nothing throws into ingest, and the keys are left for the next interval. */
class IdentityReconcilerTest {

    private static final String KEY = "pk_" + "c".repeat(24);

    @Test
    void aReconcileWhileTheBrokerIsDownReportsFailureAndThrowsNothing() throws IOException {
        BrokerIdentities broker = new BrokerIdentities(downBroker());
        try {
            IdentityReconciler reconciler = new IdentityReconciler(null, null, broker, downBroker());
            assertThat(reconciler.reconcile(Map.of(KEY, "pw"))).isFalse();
        } finally {
            broker.close();
        }
    }

    @Test
    void anIssueOrRevokeWhileTheBrokerIsDownThrowsNothing() throws IOException {
        BrokerIdentities broker = new BrokerIdentities(downBroker());
        try {
            IdentityReconciler reconciler = new IdentityReconciler(null, null, broker, downBroker());
            assertThatCode(() -> {
                        reconciler.provision(new IdentityReconciler.KeyIssued(KEY, "pw"));
                        reconciler.remove(new IdentityReconciler.KeyRevoked(KEY));
                    })
                    .doesNotThrowAnyException();
        } finally {
            broker.close();
        }
    }

    /** Settings naming a port nothing listens on (taken, then freed), with a short wait for the broker. */
    private static IngestConfig downBroker() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        return IngestConfigs.load(Map.of(
                "podium.ingest.bootstrap-servers", "127.0.0.1:" + port,
                "podium.ingest.agent-identities.enabled", "true",
                "podium.ingest.agent-identities.broker-timeout", "1s"));
    }
}
