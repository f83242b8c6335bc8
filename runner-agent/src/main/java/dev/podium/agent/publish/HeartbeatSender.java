package dev.podium.agent.publish;

import dev.podium.events.codec.EventCodec;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends signed heartbeats straight to Kafka. They are not journaled: a heartbeat lost in an outage is replaced by the next
 * one, and replaying old ones after an outage would only tell ingest stale news.
 */
public final class HeartbeatSender implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final EventSink sink;

    public HeartbeatSender(String bootstrapServers, KafkaLogin login, EventSink sink) {
        this.producer = new KafkaProducer<>(
                Publisher.producerConfig(bootstrapServers, login), new StringSerializer(), new ByteArraySerializer());
        this.sink = sink;
    }

    public static byte[] encode(Heartbeat hb) {
        try {
            return EventCodec.newMapper().writeValueAsBytes(hb);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends one heartbeat and waits for the acknowledgement; false when Kafka did not acknowledge in time. */
    public boolean send(Heartbeat hb, Duration timeout) {
        byte[] value = encode(hb);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.HEARTBEATS, hb.agentId(), value);
        sink.heartbeatHeaders(value).forEach((k, v) -> record.headers().add(k, v));
        try {
            producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }
}
