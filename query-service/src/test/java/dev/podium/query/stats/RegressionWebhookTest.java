package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The webhook against a real HTTP server on the loopback interface. */
class RegressionWebhookTest {

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(204);
    private final List<Change> current = new ArrayList<>();
    private RegressionWebhook hook;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", ex -> {
            received.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(status.get(), -1);
            ex.close();
        });
        server.start();
        hook = new RegressionWebhook(() -> List.copyOf(current), URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook"),
                HttpClient.newHttpClient());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static Change change(String kind, int run) {
        return new Change(kind, "b", "k1", "tput", "nvidia-h100", "NVIDIA H100", "samples/s", 100, 90, 0.9, 10, 20,
                new UUID(0, run), Instant.parse("2026-11-01T00:00:00Z").plusSeconds(run), "2.4.0", "2.5.1", "/history?key=k1");
    }

    @Test
    void regressionsKnownAtStartAreNotSentAndEachNewOneIsSentOnce() {
        current.add(change(Change.REGRESSION, 1));
        assertThat(hook.poll()).isZero();

        current.add(change(Change.REGRESSION, 2));
        current.add(change(Change.IMPROVEMENT, 3));
        assertThat(hook.poll()).isEqualTo(1);
        assertThat(hook.poll()).isZero();

        assertThat(received).singleElement().satisfies(body -> assertThat(body).contains("\"type\":\"podium.regression\"")
                .contains("\"kind\":\"regression\"").contains("00000000-0000-0000-0000-000000000002"));
    }

    @Test
    void aFailedDeliveryIsTriedAgainAtTheNextLook() {
        hook.poll();
        current.add(change(Change.REGRESSION, 4));
        status.set(503);
        assertThat(hook.poll()).isZero();
        status.set(200);
        assertThat(hook.poll()).isEqualTo(1);
        assertThat(received).hasSize(2);
    }

    @Test
    void anUnreachableUrlIsNotFatal() {
        RegressionWebhook nowhere = new RegressionWebhook(() -> List.copyOf(current), URI.create("http://127.0.0.1:1/hook"),
                HttpClient.newHttpClient());
        nowhere.poll();
        current.add(change(Change.REGRESSION, 5));
        assertThat(nowhere.poll()).isZero();
    }
}
