package dev.podium.ingest.store;

import dev.podium.events.Envelope;

/**
 * An event about to be appended. {@code writer} is the agent id for agent streams and {@code command:<token name>} for
 * the command side; {@code topic}, {@code partition} and {@code offset} are null for events the command side appends.
 */
public record NewEvent(
        Envelope envelope,
        String writer,
        String keyId,
        String payloadJson,
        String payloadHash,
        String topic,
        Integer partition,
        Long offset) {}
