package dev.podium.ingest.history;

import java.util.Comparator;

/** One history: a comparison key, a metric and a device. */
public record HistoryId(String keyId, String metric, String deviceId) {

    /** The order histories are written in, so that two writers never wait on each other's rows in opposite orders. */
    public static final Comparator<HistoryId> ORDER = Comparator.comparing(HistoryId::keyId)
            .thenComparing(HistoryId::metric)
            .thenComparing(HistoryId::deviceId);
}
