package dev.podium.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KafkaLoginTest {

    @Test
    void withoutAUserTheClientsConnectInPlaintext() {
        Properties p = new Properties();
        KafkaLogin.apply(p, KafkaLogin.of(Map.of(), new Properties()));
        assertThat(p).isEmpty();
    }

    @Test
    void aUserSignsInWithScramAndItsPasswordIsQuoted() {
        Properties p = new Properties();
        KafkaLogin.apply(
                p,
                KafkaLogin.of(
                        Map.of("PODIUM_KAFKA_USERNAME", "agent", "PODIUM_KAFKA_PASSWORD", "p\"w\\d"),
                        new Properties()));
        assertThat(p)
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        assertThat((String) p.get("sasl.jaas.config"))
                .isEqualTo(
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent\" password=\"p\\\"w\\\\d\";");
    }

    @Test
    void theKeyFilesLoginIsUsedUnlessTheEnvironmentNamesOne() {
        Properties keyFile = new Properties();
        keyFile.setProperty("kafka.username", "pk_0123");
        keyFile.setProperty("kafka.password", "from-the-file");
        assertThat(KafkaLogin.of(Map.of(), keyFile)).isEqualTo(new KafkaLogin("pk_0123", "from-the-file"));
        assertThat(KafkaLogin.of(Map.of("PODIUM_KAFKA_USERNAME", "u", "PODIUM_KAFKA_PASSWORD", "e"), keyFile))
                .isEqualTo(new KafkaLogin("u", "e"));
    }

    @Test
    void itsPasswordIsNeverPrinted() {
        assertThat(new KafkaLogin("pk_0123", "s3cret").toString()).doesNotContain("s3cret");
    }
}
