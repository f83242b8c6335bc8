package dev.podium.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KafkaLoginTest {

    @Test
    void withoutAUserTheClientsConnectInPlaintext() {
        Properties p = new Properties();
        KafkaLogin.apply(p, Map.of());
        assertThat(p).isEmpty();
    }

    @Test
    void aUserSignsInWithScramAndItsPasswordIsQuoted() {
        Properties p = new Properties();
        KafkaLogin.apply(p, Map.of("PODIUM_KAFKA_USERNAME", "agent", "PODIUM_KAFKA_PASSWORD", "p\"w\\d"));
        assertThat(p)
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        assertThat((String) p.get("sasl.jaas.config"))
                .isEqualTo(
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent\" password=\"p\\\"w\\\\d\";");
    }
}
