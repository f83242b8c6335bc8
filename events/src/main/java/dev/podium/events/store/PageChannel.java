package dev.podium.events.store;

import java.util.UUID;

/**
 * The PostgreSQL notification channel on which ingest-service says, inside each transaction that changed what pages
 * show, which pages it changed: a benchmark's (its name), one run's ({@link #run}), the steps found in histories
 * ({@link #STEPS}) or all ({@link #ALL}); query-service listens on it to drop only those pages from its cache.
 * PostgreSQL delivers a notification when the transaction commits and never for one that rolls back, so a page is
 * dropped once the rows it reads are visible.
 */
public final class PageChannel {

    /** The channel's name. */
    public static final String NAME = "podium_pages";

    /** The payload that names every benchmark: the list of benchmarks changed, or the whole read side was swapped. */
    public static final String ALL = "*";

    /**
     * The payload of a round of the change-point updater that rewrote steps and the totals of the histories searched:
     * the pages that list steps across histories ({@code /regressions}).
     */
    public static final String STEPS = "#steps";

    private static final String RUN = "run/";

    private PageChannel() {}

    /** The payload that names one run's page: any event of the run, running or ended, changes it. */
    public static String run(UUID runId) {
        return RUN + runId;
    }
}
