package dev.podium.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The load tool reads whole responses, sized or chunked, and keeps its connection for the next. */
class KeepAliveClientTest {

    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String big = "x".repeat(200_000);
        server.createContext("/sized", e -> reply(e, "sized body", false));
        server.createContext("/chunked", e -> reply(e, big, true));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void readsSizedAndChunkedResponsesOnOneConnection() throws Exception {
        try (KeepAliveClient c =
                new KeepAliveClient("127.0.0.1", server.getAddress().getPort())) {
            assertThat(c.fetch("/sized").text()).isEqualTo("sized body");
            assertThat(c.fetch("/chunked").body()).hasSize(200_000);
            assertThat(c.get("/sized")).isEqualTo(200);
            assertThat(c.get("/nothing")).isEqualTo(404);
            assertThat(c.fetch("/chunked").text()).matches("x{200000}");
        }
    }

    private static void reply(com.sun.net.httpserver.HttpExchange e, String body, boolean chunked)
            throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        e.sendResponseHeaders(200, chunked ? 0 : bytes.length);
        try (OutputStream out = e.getResponseBody()) {
            out.write(bytes);
        }
    }
}
