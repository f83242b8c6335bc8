package dev.podium.ingest.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prometheus metrics of the event consumer: {@code podium_ingest_events_total{outcome}}, {@code podium_ingest_batch_seconds}
 * {@code podium_ingest_consumer_lag} and {@code podium_ingest_consumer_partitions}; heartbeats have {@code podium_ingest_heartbeats_total{outcome}}.
 */
@ApplicationScoped
public class IngestMetrics {

    public enum Outcome {
        ACCEPTED,
        REJECTED,
        DUPLICATE,
        CONFLICT
    }

    private final Counter accepted;
    private final Counter rejected;
    private final Counter duplicate;
    private final Counter conflict;
    private final Counter heartbeatsStored;
    private final Counter heartbeatsDropped;
    private final Timer batch;
    private final AtomicLong lag = new AtomicLong();
    private final AtomicLong partitions = new AtomicLong();

    public IngestMetrics(MeterRegistry registry) {
        accepted = events(registry, "accepted");
        rejected = events(registry, "rejected");
        duplicate = events(registry, "duplicate");
        conflict = events(registry, "conflict");
        heartbeatsStored = Counter.builder("podium.ingest.heartbeats")
                .tag("outcome", "stored")
                .register(registry);
        heartbeatsDropped = Counter.builder("podium.ingest.heartbeats")
                .tag("outcome", "dropped")
                .register(registry);
        batch = Timer.builder("podium.ingest.batch")
                .description("Time to process one polled batch, database and DLQ included")
                .publishPercentileHistogram(false)
                .register(registry);
        Gauge.builder("podium.ingest.consumer.lag", lag, AtomicLong::get)
                .description("Records on podium.events not yet read by this instance")
                .register(registry);
        Gauge.builder("podium.ingest.consumer.partitions", partitions, AtomicLong::get)
                .description("Partitions of podium.events this instance owns; a rebalance changes it")
                .register(registry);
    }

    private static Counter events(MeterRegistry registry, String outcome) {
        return Counter.builder("podium.ingest.events")
                .tag("outcome", outcome)
                .description("Records of podium.events by outcome")
                .register(registry);
    }

    public void count(Outcome outcome, int n) {
        if (n == 0) {
            return;
        }
        switch (outcome) {
            case ACCEPTED -> accepted.increment(n);
            case REJECTED -> rejected.increment(n);
            case DUPLICATE -> duplicate.increment(n);
            case CONFLICT -> conflict.increment(n);
        }
    }

    public Timer batchTimer() {
        return batch;
    }

    public void lag(long value) {
        lag.set(value);
    }

    public void partitions(int owned) {
        partitions.set(owned);
    }

    public void heartbeat(boolean stored) {
        (stored ? heartbeatsStored : heartbeatsDropped).increment();
    }
}
