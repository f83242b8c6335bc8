package dev.podium.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One {@code POST /admin/rebuild} of ingest-service, timed: its status, body and seconds. */
record Rebuild(int status, String body, double seconds) {

    static Rebuild post(String ingest, String token) throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(ingest + "/admin/rebuild"))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofHours(4))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Rebuild(r.statusCode(), r.body(), (System.nanoTime() - t0) / 1e9);
    }

    /** The rebuild, or an exception saying what ingest-service answered instead. */
    Rebuild succeeded() {
        if (status / 100 != 2) {
            throw new IllegalStateException("rebuild answered " + status + ": " + body);
        }
        return this;
    }
}
