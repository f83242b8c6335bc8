package dev.podium.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.agent.publish.KafkaLogin;
import dev.podium.events.sign.EventSigner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {

    @TempDir
    Path dir;

    @Test
    void readsAKeyFileAndLetsTheEnvironmentOverrideIt() throws Exception {
        String secret = EventSigner.newSecret();
        Path f = dir.resolve("agent.key");
        ownerOnly(f, "agent.id=gpu-host-3\nkey.id=k1\nkey.secret=" + secret + "\nkafka.bootstrap.servers=k:9092\n");
        KeyFile.Identity id = KeyFile.load(f, Map.of("PODIUM_POOL", "h100"));
        assertThat(id.agentId()).isEqualTo("gpu-host-3");
        assertThat(id.secret()).isEqualTo(EventSigner.secretBytes(secret));
        assertThat(id.pool()).isEqualTo("h100");
        assertThat(id.bootstrapServers()).isEqualTo("k:9092");
    }

    @Test
    void theKeysOwnKafkaLoginIsReadFromTheKeyFile() throws Exception {
        Path f = dir.resolve("agent.key");
        ownerOnly(
                f,
                "agent.id=a1\nkey.id=pk_1\nkey.secret=" + EventSigner.newSecret()
                        + "\nkafka.username=pk_1\nkafka.password=pw\n");
        assertThat(KeyFile.load(f, Map.of()).kafkaLogin()).isEqualTo(new KafkaLogin("pk_1", "pw"));
        assertThat(KeyFile.load(
                                null,
                                Map.of(
                                        "PODIUM_AGENT_ID",
                                        "a1",
                                        "PODIUM_KEY_ID",
                                        "k",
                                        "PODIUM_KEY_SECRET",
                                        EventSigner.newSecret()))
                        .kafkaLogin())
                .isNull();
    }

    @Test
    void environmentAloneIsEnough() {
        KeyFile.Identity id = KeyFile.load(
                null,
                Map.of("PODIUM_AGENT_ID", "a1", "PODIUM_KEY_ID", "k", "PODIUM_KEY_SECRET", EventSigner.newSecret()));
        assertThat(id.pool()).isEqualTo("default");
    }

    @Test
    void missingOrBadValuesNameTheKey() {
        assertThatThrownBy(() -> KeyFile.load(null, Map.of())).hasMessageContaining("agent.id");
        assertThatThrownBy(() -> KeyFile.load(
                        null,
                        Map.of(
                                "PODIUM_AGENT_ID",
                                "a/b",
                                "PODIUM_KEY_ID",
                                "k",
                                "PODIUM_KEY_SECRET",
                                EventSigner.newSecret())))
                .hasMessageContaining("agent.id 'a/b'");
        assertThatThrownBy(() -> KeyFile.load(
                        null, Map.of("PODIUM_AGENT_ID", "a", "PODIUM_KEY_ID", "k", "PODIUM_KEY_SECRET", "c2hvcnQ")))
                .hasMessageContaining("too short");
        assertThatThrownBy(() -> KeyFile.load(dir.resolve("nope"), Map.of())).hasMessageContaining("does not exist");
    }

    @Test
    void aKeyFileOthersMayReadIsRefusedWithTheModeAndTheFix() throws Exception {
        Path f = ownerOnly(
                dir.resolve("agent.key"), "agent.id=a1\nkey.id=k\nkey.secret=" + EventSigner.newSecret() + "\n");
        for (String mode : new String[] {"rw-r--r--", "rw-r-----", "rw----r--", "rw--w----"}) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
            assertThatThrownBy(() -> KeyFile.load(f, Map.of()))
                    .as(mode)
                    .isInstanceOf(SettingsException.class)
                    .hasMessageContaining("key file " + f + " is open to others (mode " + mode + ")")
                    .hasMessageContaining("chmod 600 " + f);
        }
    }

    @Test
    void aKeyFileOnlyItsOwnerMayReadIsAccepted() throws Exception {
        Path f = ownerOnly(
                dir.resolve("agent.key"), "agent.id=a1\nkey.id=k\nkey.secret=" + EventSigner.newSecret() + "\n");
        for (String mode : new String[] {"rw-------", "r--------", "r-x------"}) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
            assertThat(KeyFile.load(f, Map.of()).agentId()).as(mode).isEqualTo("a1");
        }
    }

    /** Writes a key file as podium-admin and ./podium up do: mode 600. */
    static Path ownerOnly(Path f, String text) throws Exception {
        Files.writeString(f, text);
        return Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    }
}
