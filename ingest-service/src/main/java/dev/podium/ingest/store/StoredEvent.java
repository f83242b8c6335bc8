package dev.podium.ingest.store;

import dev.podium.events.Envelope;

/** An event as the event store holds it: its envelope and its place in the global order. */
public record StoredEvent(long position, Envelope envelope) {}
