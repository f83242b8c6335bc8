package dev.podium.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Where the produce-to-visible time of followed completions went, from the event store's own clocks (the same
 * machine's): sent → stored (the broker, the consumer's poll and the check, up to the insert's
 * {@code recorded_at}), stored → committed (the batch's projections and commit, {@code pg_xact_commit_timestamp}), and
 * committed → visible (the notification, query-service and the 2 ms poll).
 */
final class VisibleStages {

    /** A followed completion and when the poll first saw it on the page. */
    record Followed(LiveRuns.Completion completion, Instant seenAt) {}

    private record Stages(double stored, double committed, double visible) {}

    private VisibleStages() {}

    /** One line per stage: p50, p99 and max in ms over the completions the store has (all of them, normally). */
    static List<String> report(String jdbc, List<Followed> followed) throws SQLException {
        List<Stages> stages = new ArrayList<>();
        try (Connection c = Db.connect(jdbc);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT recorded_at, pg_xact_commit_timestamp(xmin) FROM event_store WHERE event_id = ?")) {
            for (Followed f : followed) {
                ps.setObject(1, f.completion().eventId());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getTimestamp(2) != null) {
                        stages.add(stages(f, rs.getTimestamp(1), rs.getTimestamp(2)));
                    }
                }
            }
        }
        return List.of(
                line("sent -> stored", stages, Stages::stored),
                line("stored -> committed", stages, Stages::committed),
                line("committed -> visible", stages, Stages::visible));
    }

    private static Stages stages(Followed f, Timestamp recorded, Timestamp committed) {
        Instant sent = f.completion().sentAt();
        return new Stages(
                millis(sent, recorded.toInstant()),
                millis(recorded.toInstant(), committed.toInstant()),
                millis(committed.toInstant(), f.seenAt()));
    }

    private static double millis(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e6;
    }

    private static String line(String name, List<Stages> stages, Function<Stages, Double> stage) {
        double[] ms = stages.stream().mapToDouble(stage::apply).toArray();
        return String.format(
                Locale.ROOT,
                "%-21s p50 %6.1f ms, p99 %6.1f ms, max %6.1f ms (%d runs)",
                name,
                Stats.percentile(ms, 50),
                Stats.percentile(ms, 99),
                Stats.percentile(ms, 100),
                ms.length);
    }
}
