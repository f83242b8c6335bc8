package dev.podium.ingest.store;

/** What became of one event offered to the event store. */
public sealed interface Appended {

    record Inserted(long position) implements Appended {}

    /** The same bytes are already stored: a redelivery, ignored. */
    record Duplicate() implements Appended {}

    /** Its event id or its stream seq is taken by other content. */
    record Conflict(String reason) implements Appended {}
}
