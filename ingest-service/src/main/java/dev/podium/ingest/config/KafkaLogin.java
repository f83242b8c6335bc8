package dev.podium.ingest.config;

import java.util.Map;

/**
 * The SASL/SCRAM login every Kafka client of ingest-service uses when a user is configured (docker-compose.yml's broker
 * requires one); without a user the clients connect in plaintext, as to the broker {@code ./podium up} starts.
 */
public final class KafkaLogin {

    private KafkaLogin() {}

    public static void apply(IngestConfig config, Map<Object, Object> clientProperties) {
        config.kafkaUsername().ifPresent(user -> {
            String password = config.kafkaPassword().orElse("");
            clientProperties.put("security.protocol", "SASL_PLAINTEXT");
            clientProperties.put("sasl.mechanism", "SCRAM-SHA-512");
            clientProperties.put(
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required" + " username=\"" + quoted(user)
                            + "\" password=\"" + quoted(password) + "\";");
        });
    }

    private static String quoted(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
