package dev.podium.ingest.history;

import java.util.UUID;

/** What the rows of a history show of one of its runs: read only for the runs they name, not for every point. */
record RunDetails(String benchmark, String unit, String direction, String frameworkVersion) {

    /** A run in a history: the key {@link RunDetails} are read by. */
    record Of(HistoryId history, UUID runId) {}
}
