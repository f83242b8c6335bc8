package dev.podium.ingest.history;

import dev.podium.ingest.projection.Touched;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/**
 * Notes, inside a batch's transaction, what the batch touched that histories depend on: its runs and the histories
 * results left. One insert of rows no other transaction writes, so it never waits; the {@link ChangePointUpdater} folds
 * them in after the commit.
 */
public final class HistoryTouches {

    private HistoryTouches() {}

    public static void record(Connection c, Touched touched, long position) throws SQLException {
        if (touched.runs().isEmpty() && touched.devices().isEmpty()) {
            return;
        }
        List<Touched.KeyMetricDevice> devices = List.copyOf(touched.devices());
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO history_touched (run_id, key_id, metric, device_id, position)
                SELECT run_id, NULL, NULL, NULL, ? FROM unnest(?::uuid[]) AS t(run_id)
                UNION ALL
                SELECT NULL, key_id, metric, device_id, ? FROM unnest(?::text[], ?::text[], ?::text[]) AS d(key_id, metric, device_id)""")) {
            ps.setLong(1, position);
            ps.setArray(2, c.createArrayOf("uuid", touched.runs().toArray(new UUID[0])));
            ps.setLong(3, position);
            ps.setArray(
                    4,
                    c.createArrayOf(
                            "text",
                            devices.stream().map(Touched.KeyMetricDevice::keyId).toArray()));
            ps.setArray(
                    5,
                    c.createArrayOf(
                            "text",
                            devices.stream()
                                    .map(Touched.KeyMetricDevice::metric)
                                    .toArray()));
            ps.setArray(
                    6,
                    c.createArrayOf(
                            "text",
                            devices.stream()
                                    .map(Touched.KeyMetricDevice::deviceId)
                                    .toArray()));
            ps.executeUpdate();
        }
    }
}
