package dev.podium.ingest.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on a free local port that the regression webhook of the test application POSTs to. It records every
 * request, answers 503 to the next {@link #failNext} requests and 204 to the others.
 */
public class WebhookReceiver implements QuarkusTestResourceLifecycleManager {

    /** One request as received: the delivery id header, the parsed body, and whether it was answered 2xx. */
    public record Delivery(String idHeader, JsonNode body, boolean accepted) {}

    private static final List<Delivery> DELIVERIES = new CopyOnWriteArrayList<>();
    private static final AtomicInteger FAILURES = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/hook", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            boolean fail = FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
            DELIVERIES.add(new Delivery(exchange.getRequestHeaders().getFirst("Podium-Delivery-Id"), body, !fail));
            exchange.sendResponseHeaders(fail ? 503 : 204, -1);
            exchange.close();
        });
        server.start();
        return Map.of(
                "podium.history.webhook.url",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Answers 503 to the next {@code n} requests. */
    public static void failNext(int n) {
        FAILURES.set(n);
    }

    /** The requests whose regression is under {@code keyId}, in arrival order. */
    public static List<Delivery> forKey(String keyId) {
        return DELIVERIES.stream()
                .filter(d -> keyId.equals(d.body().path("change").path("key_id").asText()))
                .toList();
    }
}
