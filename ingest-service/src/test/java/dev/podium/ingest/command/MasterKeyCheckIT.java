package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.store.SecretCipher;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Ingest refuses to start half-sealed: a key that still verifies but was sealed under another master key fails the
 * start check by name, a revoked one does not (it is never opened again), and once the stray key is gone it passes.
 */
@QuarkusTest
class MasterKeyCheckIT {

    @Inject
    MasterKeyCheck check;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aKeySealedUnderAnotherMasterKeyStopsTheStartByName() throws SQLException {
        assertThatNoException().isThrownBy(check::check);
        insertSealedElsewhere("pk_elsewhere_active", "active");
        insertSealedElsewhere("pk_elsewhere_revoked", "revoked");
        try {
            assertThatThrownBy(check::check)
                    .isInstanceOf(MasterKeyCheck.Sealed.class)
                    .hasMessageContaining("1 agent key(s) (pk_elsewhere_active)")
                    .hasMessageNotContaining("pk_elsewhere_revoked")
                    .hasMessageContaining("Restore the master key");
        } finally {
            delete("pk_elsewhere_active");
        }
        assertThatNoException().isThrownBy(check::check);
    }

    @Test
    void theMessageNamesTheCommandKeyAndAtMostFiveAgentKeys() {
        String message =
                MasterKeyCheck.message(List.of("pk_1", "pk_2", "pk_3", "pk_4", "pk_5", "pk_6"), Optional.of("ck_1"));
        assertThat(message)
                .startsWith("ingest refuses to start: the command key ck_1 and 6 agent key(s) (pk_1, pk_2, pk_3,"
                        + " pk_4, pk_5, ...) do not decrypt")
                .doesNotContain("pk_6");
        assertThat(MasterKeyCheck.Sealed.in(new RuntimeException(new MasterKeyCheck.Sealed(message))))
                .isTrue();
        assertThat(MasterKeyCheck.Sealed.in(new RuntimeException("other"))).isFalse();
    }

    private void insertSealedElsewhere(String keyId, String status) throws SQLException {
        byte[] other = new byte[32];
        new SecureRandom().nextBytes(other);
        SecretCipher.Sealed sealed = new SecretCipher(Base64.getEncoder().encodeToString(other))
                .seal(keyId, EventSigner.secretBytes(EventSigner.newSecret()));
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO agent_key (key_id, agent_id, secret_ciphertext, secret_nonce, status, issued_by)
                        VALUES (?, 'agent-elsewhere', ?, ?, ?, 'test')""")) {
            ps.setString(1, keyId);
            ps.setBytes(2, sealed.ciphertext());
            ps.setBytes(3, sealed.nonce());
            ps.setString(4, status);
            ps.executeUpdate();
        }
    }

    private void delete(String keyId) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM agent_key WHERE key_id = ?")) {
            ps.setString(1, keyId);
            ps.executeUpdate();
        }
    }
}
