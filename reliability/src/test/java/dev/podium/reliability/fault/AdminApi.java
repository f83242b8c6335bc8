package dev.podium.reliability.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The command side's HTTP API as an operator calls it, with a named admin token. */
public final class AdminApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final String token;

    public AdminApi(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    /** Registers an agent and returns its key, whose secret is shown this once. */
    /** The admin token itself, for tests that check it stays out of reach. */
    public String token() {
        return token;
    }

    public Credentials issue(String agentId) {
        JsonNode body = post("/admin/agents", "{\"agent_id\":\"" + agentId + "\"}", 201);
        return new Credentials(
                agentId, body.get("key_id").asText(), body.get("secret").asText());
    }

    /** An issued key's Kafka identity, as the key-issuing API answers it when agent identities are on. */
    public record KafkaIdentity(String agentId, String keyId, String username, String password) {}

    /** Registers an agent and returns the login of its key's own Kafka identity. */
    public KafkaIdentity issueKafkaIdentity(String agentId) {
        JsonNode body = post("/admin/agents", "{\"agent_id\":\"" + agentId + "\"}", 201);
        return new KafkaIdentity(
                agentId,
                body.get("key_id").asText(),
                body.get("kafka_username").asText(),
                body.get("kafka_password").asText());
    }

    /** Registers an agent in {@code pool} and returns its key file, as {@code podium-admin agent add} users write it. */
    public String keyFile(String agentId, String pool) {
        JsonNode body = post("/admin/agents", "{\"agent_id\":\"" + agentId + "\",\"pool\":\"" + pool + "\"}", 201);
        return "agent.id=" + agentId + "\nkey.id=" + body.get("key_id").asText() + "\nkey.secret="
                + body.get("secret").asText() + "\ncommand.public.key="
                + body.get("command_public_key").asText()
                + "\npool=" + pool + "\n";
    }

    public Credentials rotate(String agentId) {
        JsonNode body = post("/admin/agents/" + agentId + "/keys/rotate", "", 201);
        return new Credentials(
                agentId, body.get("key_id").asText(), body.get("secret").asText());
    }

    public void revoke(String keyId) {
        post("/admin/keys/" + keyId + "/revoke", "{\"reason\":\"reliability suite\"}", 200);
    }

    /** The status a POST answers with the given bearer token, or with none when {@code token} is null. */
    public int statusWithToken(String token, String path, String json) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(json));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The answer to a GET of the command side's API: its status and body. */
    public HttpResponse<String> get(String path) {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path))
                            .header("Authorization", "Bearer " + token)
                            .timeout(Duration.ofSeconds(30))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** POSTs JSON and returns the answer's body, failing unless it has the {@code expected} status. */
    public JsonNode post(String path, String json, int expected) {
        return post(path, "application/json", json, expected);
    }

    /** POSTs a body of {@code contentType} (a campaign file is YAML) and returns the answer's JSON body. */
    public JsonNode post(String path, String contentType, String body, int expected) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path))
                            .header("Authorization", "Bearer " + token)
                            .header("Content-Type", contentType)
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != expected) {
                throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
            }
            return r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
