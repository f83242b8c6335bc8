package dev.podium.bench;

import dev.podium.events.run.RunCompleted;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A fleet at work, in the open loop: signed events of runs starting, progressing and completing, sent through Kafka
 * at a set rate (events/s, changeable while it runs), {@value #IN_FLIGHT} runs at a time interleaved, over every
 * benchmark, key and device in turn (the measured pages' included). On request it reports when it sent a run's
 * completion, for the produce-to-visible probe.
 */
final class LiveRuns implements AutoCloseable {

    private static final int IN_FLIGHT = 64;
    private static final int PROGRESS_EVENTS = 2;

    /**
     * A completion sent: the run, its event, and just before send() System.nanoTime() and the wall clock (to set beside
     * the event store's timestamps, on the same machine).
     */
    record Completion(UUID runId, UUID eventId, long sentNanos, Instant sentAt) {}

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final String keyId;
    private final PageEvents events;
    private final long firstRun;
    private final Thread thread;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean probe = new AtomicBoolean();
    private final BlockingQueue<Completion> completions = new LinkedBlockingQueue<>();
    private final AtomicLong sent = new AtomicLong();
    private volatile double rate;

    /** Live run {@code i} is of key and device {@code firstRun + i}, so runs go on where the loaded ones end. */
    LiveRuns(String bootstrap, String topic, String keyId, PageEvents events, long firstRun, double rate) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // The agent's settings (runner-agent's Publisher).
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "podium-bench-pages");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.keyId = keyId;
        this.events = events;
        this.firstRun = firstRun;
        this.rate = rate;
        this.thread = new Thread(this::produce, "live-runs");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void rate(double eventsPerSecond) {
        rate = eventsPerSecond;
    }

    double rate() {
        return rate;
    }

    long sent() {
        return sent.get();
    }

    /** Asks for the next completion sent; {@link #completions()} then gets it. */
    void probeNextCompletion() {
        probe.set(true);
    }

    BlockingQueue<Completion> completions() {
        return completions;
    }

    private void produce() {
        List<ArrayDeque<ResultEvents.Signed>> runs = new ArrayList<>(IN_FLIGHT);
        long next = firstRun;
        for (int i = 0; i < IN_FLIGHT; i++) {
            runs.add(new ArrayDeque<>());
        }
        long due = System.nanoTime();
        for (long tick = 0; !stop.get(); tick++) {
            if (rate <= 0) {
                LockSupport.parkNanos(10_000_000L);
                due = System.nanoTime();
                continue;
            }
            due += (long) (1e9 / rate);
            long wait;
            while ((wait = due - System.nanoTime()) > 0 && !stop.get()) {
                LockSupport.parkNanos(wait);
            }
            ArrayDeque<ResultEvents.Signed> run = runs.get((int) (tick % IN_FLIGHT));
            if (run.isEmpty()) {
                run.addAll(events.live(next++, PROGRESS_EVENTS, Instant.now()));
            }
            ResultEvents.Signed s = run.poll();
            if (s.envelope().payload() instanceof RunCompleted done && probe.compareAndSet(true, false)) {
                completions.add(new Completion(done.runId(), s.envelope().eventId(), System.nanoTime(), Instant.now()));
            }
            RecordHeaders h = new RecordHeaders();
            h.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
            h.add(EventSigner.SIGNATURE_HEADER, s.signature().getBytes(StandardCharsets.US_ASCII));
            producer.send(new ProducerRecord<>(topic, null, s.streamId(), s.value(), h));
            sent.incrementAndGet();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
        producer.close();
    }
}
