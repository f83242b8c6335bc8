package dev.podium.query.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * POSTs each new regression to a configured URL as JSON, one request per regression. It writes nothing to the database:
 * what it has sent lives in memory, so the first look after a start only learns the regressions that already exist (no
 * flood of old ones after a restart). A regression whose POST fails (no 2xx answer) is tried again at the next look.
 */
public class RegressionWebhook {

    private static final Logger LOG = Logger.getLogger(RegressionWebhook.class);

    private final Supplier<List<Change>> regressions;
    private final URI url;
    private final HttpClient http;
    private final ObjectMapper mapper = EventCodec.newMapper();
    private final Set<String> known = new HashSet<>();
    private boolean primed;

    public RegressionWebhook(Supplier<List<Change>> regressions, URI url, HttpClient http) {
        this.regressions = regressions;
        this.url = url;
        this.http = http;
    }

    /** One look: sends the regressions not sent before and returns how many were delivered. */
    public synchronized int poll() {
        List<Change> now = regressions.get().stream().filter(Change::regression).toList();
        if (!primed) {
            now.forEach(c -> known.add(id(c)));
            primed = true;
            return 0;
        }
        int sent = 0;
        for (Change c : now) {
            if (known.contains(id(c))) {
                continue;
            }
            if (send(c)) {
                known.add(id(c));
                sent++;
            }
        }
        return sent;
    }

    private boolean send(Change c) {
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", "podium.regression");
            body.put("change", c);
            HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body))).build();
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status / 100 != 2) {
                LOG.warnf("regression webhook answered %d; will retry", status);
                return false;
            }
            return true;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (java.io.IOException e) {
            LOG.warnf("regression webhook unreachable (%s); will retry", e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String id(Change c) {
        return c.keyId() + "\n" + c.metric() + "\n" + c.deviceId() + "\n" + c.runId();
    }
}
