package dev.podium.agent.publish;

import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.events.validate.Limits;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends the journal's pending entries to Kafka from one background thread and marks each one sent when Kafka
 * acknowledges it. The producer is idempotent with {@code acks=all} and retries for as long as the agent runs, so an
 * outage only delays entries and keeps their order; {@code send} blocking on a broker that is down never blocks the run,
 * which only appends to the journal. What is not acknowledged when the agent stops stays pending for the next start.
 */
public final class Publisher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Publisher.class.getName());

    private final Journal journal;
    private final KafkaProducer<String, byte[]> producer;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private final Object signal = new Object();
    private final Thread sender;
    private volatile boolean closed;

    /** {@code login}: the key's own Kafka login, or null where the broker needs none. */
    public Publisher(Journal journal, String bootstrapServers, KafkaLogin login) {
        this.journal = journal;
        this.producer = new KafkaProducer<>(
                producerConfig(bootstrapServers, login), new StringSerializer(), new ByteArraySerializer());
        this.sender = new Thread(this::loop, "podium-sender");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    static Properties producerConfig(String bootstrapServers, KafkaLogin login) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        KafkaLogin.apply(p, login);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.RETRIES_CONFIG, Integer.toString(Integer.MAX_VALUE));
        // Keep retrying through an outage rather than failing records; the journal holds them meanwhile anyway.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "2000");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Limits.MAX_RECORD_BYTES + 64 * 1024));
        p.put(
                ProducerConfig.CLIENT_ID_CONFIG,
                "podium-agent-" + ProcessHandle.current().pid());
        return p;
    }

    /** Wakes the sender after an append. */
    public void nudge() {
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    /**
     * Waits until nothing is pending or the timeout passes. Returns the number of entries still pending (0 = all
     * acknowledged).
     */
    public int awaitDelivered(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        nudge();
        int left = journal.pendingCount();
        while (left > 0 && System.nanoTime() < deadline) {
            synchronized (signal) {
                signal.wait(100);
            }
            left = journal.pendingCount();
        }
        return left;
    }

    public String lastError() {
        return lastError.get();
    }

    private void loop() {
        while (!closed) {
            try {
                List<JournalEntry> entries = journal.pending();
                // Ids acknowledged stay in inFlight until a listing no longer shows them, so a listing taken just
                // before
                // an acknowledgement cannot send the entry a second time.
                inFlight.retainAll(entries.stream().map(JournalEntry::id).collect(Collectors.toSet()));
                for (JournalEntry e : entries) {
                    if (closed) {
                        return;
                    }
                    if (inFlight.add(e.id())) {
                        send(e);
                    }
                }
                synchronized (signal) {
                    signal.wait(entries.isEmpty() ? 1000 : 200);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // send() times out while the broker is away; the entries stay pending and are tried again in order.
                String msg = e.getMessage() == null ? e.toString() : e.getMessage();
                if (!msg.equals(lastError.getAndSet(msg))) {
                    LOG.warning("Kafka not reachable, events stay in the journal: " + msg);
                }
                synchronized (signal) {
                    try {
                        signal.wait(1000);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    private void send(JournalEntry e) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(e.topic(), e.key(), e.value());
        e.headers().forEach((k, v) -> record.headers().add(k, v));
        try {
            producer.send(record, (metadata, error) -> {
                if (error == null) {
                    journal.markSent(e.id());
                    lastError.set(null);
                } else {
                    lastError.set(error.toString());
                    inFlight.remove(e.id());
                }
                nudge();
            });
        } catch (RuntimeException ex) {
            inFlight.remove(e.id());
            throw ex;
        }
    }

    @Override
    public void close() {
        closed = true;
        nudge();
        try {
            sender.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Records not acknowledged by now stay pending in the journal; dropping them from the producer loses nothing.
        producer.close(Duration.ofMillis(500));
    }
}
