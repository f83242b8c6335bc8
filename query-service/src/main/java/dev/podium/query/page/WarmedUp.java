package dev.podium.query.page;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Readiness is DOWN until the {@link Warmup}'s requests are done. */
@Readiness
@ApplicationScoped
public class WarmedUp implements HealthCheck {

    private final Warmup warmup;

    public WarmedUp(Warmup warmup) {
        this.warmup = warmup;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("pages warmed up")
                .status(warmup.done())
                .build();
    }
}
