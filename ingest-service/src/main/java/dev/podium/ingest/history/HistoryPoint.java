package dev.podium.ingest.history;

import java.time.Instant;
import java.util.Comparator;
import java.util.UUID;

/**
 * One point of a history: a counted, valid run's mean and what orders it. What a step's row shows of its runs is read
 * apart, for the few runs the rows name ({@link RunDetails}).
 */
record HistoryPoint(UUID runId, Instant startedAt, double mean) {

    /**
     * Oldest first; runs that started at the same time in run id order as PostgreSQL orders uuids (bytewise, unsigned),
     * which is not {@link UUID#compareTo} (signed halves): the order of the index the points are read from, reversed.
     */
    static final Comparator<HistoryPoint> ORDER = Comparator.comparing(HistoryPoint::startedAt)
            .thenComparing(HistoryPoint::runId, HistoryPoint::compareAsPostgres);

    private static int compareAsPostgres(UUID a, UUID b) {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
