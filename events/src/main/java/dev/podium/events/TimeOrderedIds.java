package dev.podium.events;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import java.util.UUID;

/**
 * The ids Podium mints for what it stores (events, runs, streams, jobs, campaigns): UUID version 7 (RFC 9562), the Unix
 * time in milliseconds first, then random bits, monotonic within the process. Ids minted one after the other sort one
 * after the other bytewise, as PostgreSQL compares uuids, so the unique indexes of the event store and the read models
 * take a fleet's new rows at one edge, on pages already in memory. Random (version 4) ids put every insert on a leaf of
 * its own: on a store larger than memory each is read from disk and written back dirty, several per event.
 */
public final class TimeOrderedIds {

    private static final TimeBasedEpochGenerator GENERATOR = Generators.timeBasedEpochGenerator();

    private TimeOrderedIds() {}

    /** A new id, after every id this process minted before it. Thread-safe. */
    public static UUID next() {
        return GENERATOR.generate();
    }
}
