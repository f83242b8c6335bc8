package dev.podium.agent.journal;

import java.util.Map;

/**
 * One record waiting to be (or already) acknowledged by Kafka: the exact signed value bytes, their headers, topic and key.
 * {@code id} orders entries: within one agent process it is increasing, so a stream's events resend in seq order.
 */
public record JournalEntry(String id, String topic, String key, Map<String, byte[]> headers, byte[] value) {

    public JournalEntry {
        headers = Map.copyOf(headers);
    }
}
