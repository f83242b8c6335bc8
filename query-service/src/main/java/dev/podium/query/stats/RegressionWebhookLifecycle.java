package dev.podium.query.stats;

import dev.podium.query.config.QueryConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/** Starts the {@link RegressionWebhook} poller when {@code podium.query.webhook.url} is set, and stops it on shutdown. */
@ApplicationScoped
public class RegressionWebhookLifecycle {

    private static final Logger LOG = Logger.getLogger(RegressionWebhookLifecycle.class);

    private final QueryConfig config;
    private final HistoryService histories;
    private ScheduledExecutorService timer;

    public RegressionWebhookLifecycle(QueryConfig config, HistoryService histories) {
        this.config = config;
        this.histories = histories;
    }

    void start(@Observes StartupEvent e) {
        config.webhook().url().ifPresent(url -> {
            RegressionWebhook hook = new RegressionWebhook(
                    () -> histories.regressions("regressions", null, String.valueOf(HistoryService.MAX_LIMIT)).changes(), url,
                    HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "podium-regression-webhook");
                t.setDaemon(true);
                return t;
            });
            long every = Math.max(1, config.webhook().interval().toSeconds());
            timer.scheduleWithFixedDelay(() -> {
                try {
                    hook.poll();
                } catch (RuntimeException ex) {
                    LOG.warn("regression webhook poll failed", ex);
                }
            }, 0, every, TimeUnit.SECONDS);
            LOG.infof("regression webhook on: %s every %d s", url.getHost(), every);
        });
    }

    void stop(@Observes ShutdownEvent e) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
