package dev.podium.events.store;

/**
 * The PostgreSQL notification channel on which ingest-service says, inside each batch's transaction, which benchmarks'
 * pages the batch changed; query-service listens on it to drop only those pages from its cache. PostgreSQL delivers a
 * notification when the transaction commits and never for one that rolls back, so a page is dropped once the rows it
 * reads are visible.
 */
public final class PageChannel {

    /** The channel's name. */
    public static final String NAME = "podium_pages";

    /** The payload that names every benchmark: the list of benchmarks changed, or the whole read side was swapped. */
    public static final String ALL = "*";

    private PageChannel() {}
}
