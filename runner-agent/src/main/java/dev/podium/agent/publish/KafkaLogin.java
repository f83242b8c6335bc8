package dev.podium.agent.publish;

import java.util.Map;
import java.util.Properties;

/**
 * The SASL/SCRAM login of the agent's Kafka clients: its key's own Kafka user, which ingest creates when it issues the
 * key and whose ACLs let it write podium.events and podium.heartbeats and read podium.jobs only (docs/SECURITY.md). From
 * the key file's {@code kafka.username} and {@code kafka.password}, or {@code PODIUM_KAFKA_USERNAME} and
 * {@code PODIUM_KAFKA_PASSWORD}, which override the file so a container needs none. Without a user the clients connect
 * in plaintext, as to the broker {@code ./podium up} starts.
 */
public record KafkaLogin(String username, String password) {

    /** The login the environment or the key file names; null when neither names a user. */
    public static KafkaLogin of(Map<String, String> env, Properties keyFile) {
        String user = pick(env.get("PODIUM_KAFKA_USERNAME"), keyFile.getProperty("kafka.username"));
        if (user == null) {
            return null;
        }
        String password = pick(env.get("PODIUM_KAFKA_PASSWORD"), keyFile.getProperty("kafka.password"));
        return new KafkaLogin(user.trim(), password == null ? "" : password);
    }

    /** Adds the login to a client's properties; a null login leaves the client in plaintext. */
    public static void apply(Map<Object, Object> clientProperties, KafkaLogin login) {
        if (login == null) {
            return;
        }
        clientProperties.put("security.protocol", "SASL_PLAINTEXT");
        clientProperties.put("sasl.mechanism", "SCRAM-SHA-512");
        clientProperties.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required" + " username=\""
                        + quoted(login.username) + "\" password=\"" + quoted(login.password) + "\";");
    }

    private static String pick(String fromEnv, String fromFile) {
        String v = fromEnv == null || fromEnv.isBlank() ? fromFile : fromEnv;
        return v == null || v.isBlank() ? null : v;
    }

    private static String quoted(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public String toString() {
        return "KafkaLogin[username=" + username + "]";
    }
}
