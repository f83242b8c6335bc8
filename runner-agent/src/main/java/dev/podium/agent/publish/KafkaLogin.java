package dev.podium.agent.publish;

import java.util.Map;

/**
 * The SASL/SCRAM login of the agent's Kafka clients, from {@code PODIUM_KAFKA_USERNAME} and {@code PODIUM_KAFKA_PASSWORD}
 * (docker-compose.yml's broker requires one, and its ACLs let the agent user write podium.events and podium.heartbeats
 * and read podium.jobs only). Without a user the clients connect in plaintext.
 */
public final class KafkaLogin {

    private KafkaLogin() {}

    public static void apply(Map<Object, Object> clientProperties) {
        apply(clientProperties, System.getenv());
    }

    public static void apply(Map<Object, Object> clientProperties, Map<String, String> env) {
        String user = env.get("PODIUM_KAFKA_USERNAME");
        if (user == null || user.isBlank()) {
            return;
        }
        String password = env.getOrDefault("PODIUM_KAFKA_PASSWORD", "");
        clientProperties.put("security.protocol", "SASL_PLAINTEXT");
        clientProperties.put("sasl.mechanism", "SCRAM-SHA-512");
        clientProperties.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required" + " username=\""
                        + quoted(user.trim()) + "\" password=\"" + quoted(password) + "\";");
    }

    private static String quoted(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
