package dev.podium.reliability.fault;

import java.util.List;

/**
 * The accounting of one case. {@code records}: records the case put on podium.events (redeliveries included);
 * {@code accepted}: rows in event_store; {@code rejected}: rows in rejected_event; {@code lost}: expected events not
 * stored plus expected rejections without a row; {@code duplicated}: rows beyond one per event and stream position;
 * {@code dlq}: distinct source records found on the DLQ. {@code problems} lists every disagreement with the expectation.
 */
public record CaseResult(
        String name,
        String fault,
        String keyId,
        long records,
        long expectedAccepted,
        long expectedRejected,
        long accepted,
        long rejected,
        long lost,
        long duplicated,
        long dlq,
        double seconds,
        List<String> problems) {

    public boolean exact() {
        return problems.isEmpty()
                && lost == 0
                && duplicated == 0
                && accepted == expectedAccepted
                && rejected == expectedRejected;
    }

    public CaseResult withRecords(long n) {
        return new CaseResult(
                name,
                fault,
                keyId,
                n,
                expectedAccepted,
                expectedRejected,
                accepted,
                rejected,
                lost,
                duplicated,
                dlq,
                seconds,
                problems);
    }

    /** The same accounting with {@code moreLost} records lost and {@code more} disagreements after its own. */
    public CaseResult adding(long moreLost, List<String> more) {
        List<String> all = new java.util.ArrayList<>(problems);
        all.addAll(more);
        return new CaseResult(
                name,
                fault,
                keyId,
                records,
                expectedAccepted,
                expectedRejected,
                accepted,
                rejected,
                lost + moreLost,
                duplicated,
                dlq,
                seconds,
                all);
    }
}
