package dev.podium.query.view;

import dev.podium.query.data.EventRow;
import java.util.List;

/**
 * One page of a run's event timeline: up to {@value #PER_PAGE} events by sequence number, from ingest's summaries.
 * Pages are keyed by the last sequence number before them ({@code after}), so that the last page of a run of 100,000
 * events is read from the index as cheaply as the first.
 *
 * @param rows the events shown
 * @param count how many events the run has
 * @param after the sequence number the page starts after; null on the first page
 * @param next the {@code after} of the page behind this one; null on the last
 */
public record RunEvents(List<EventRow> rows, long count, Long after, Long next) {

    public static final int PER_PAGE = 100;

    /** {@code after} as a request gives it: blank for the first page, else a whole number from 0 (400 otherwise). */
    public static Long after(String after) {
        return BadRequest.wholeNumber(
                after, 0, Long.MAX_VALUE, "after: a whole number from 0, the sequence number the events shown follow");
    }

    /** The sequence number of the first event shown (none shown: there is none). */
    public long firstSeq() {
        return rows.get(0).seq();
    }

    /** The sequence number of the last event shown. */
    public long lastSeq() {
        return rows.get(rows.size() - 1).seq();
    }

    /** The page of {@code read}, which holds up to one event more than a page: whether there is one is all it says. */
    static RunEvents of(List<EventRow> read, long count, Long after) {
        if (read.size() <= PER_PAGE) {
            return new RunEvents(read, count, after, null);
        }
        List<EventRow> rows = read.subList(0, PER_PAGE);
        return new RunEvents(
                List.copyOf(rows), count, after, rows.get(PER_PAGE - 1).seq());
    }
}
