package dev.podium.ingest.budget;

import dev.podium.events.StreamKind;
import dev.podium.events.run.RunStarted;
import dev.podium.ingest.verify.Verdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The later records of a run whose start is held are held with it, so that a run is either stored whole or held whole
 * and redriven in order (its start first) once the quota is raised. A run is held while {@code rejected_event} holds a
 * held record of its stream and the store holds none of its events.
 */
final class HeldRuns {

    private static final String HELD = """
            SELECT DISTINCT r.stream_id FROM rejected_event r
            WHERE r.held AND r.stream_id = ANY(?::text[])
              AND r.redrive_outcome IS DISTINCT FROM 'stored' AND r.redrive_outcome IS DISTINCT FROM 'duplicate'
              AND NOT EXISTS (SELECT 1 FROM event_store e WHERE e.stream_id = r.stream_id)""";

    /** Holds each verified record of a run whose start this batch held ({@code heldStarts}) or an earlier one did. */
    void hold(Connection c, Verdict[] verdicts, Set<String> heldStarts) throws SQLException {
        Set<String> streams = new LinkedHashSet<>();
        for (Verdict verdict : verdicts) {
            if (follows(verdict)) {
                streams.add(((Verdict.Verified) verdict).envelope().streamId());
            }
        }
        if (streams.isEmpty()) {
            return;
        }
        Set<String> held = new HashSet<>(heldStarts);
        streams.removeAll(heldStarts);
        if (!streams.isEmpty()) {
            held.addAll(heldBefore(c, streams));
        }
        for (int i = 0; i < verdicts.length; i++) {
            if (follows(verdicts[i])
                    && verdicts[i] instanceof Verdict.Verified v
                    && held.contains(v.envelope().streamId())) {
                verdicts[i] = Verdict.Refused.held(
                        v, "over quota: held with its run's start, which is held (redrive that first)");
            }
        }
    }

    /** A verified record of a run stream other than its start. */
    private static boolean follows(Verdict verdict) {
        return verdict instanceof Verdict.Verified v
                && v.envelope().type().streamKind() == StreamKind.RUN
                && !(v.envelope().payload() instanceof RunStarted);
    }

    private static Set<String> heldBefore(Connection c, Set<String> streams) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(HELD)) {
            ps.setArray(1, c.createArrayOf("text", streams.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
