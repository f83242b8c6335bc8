package dev.podium.query.support;

import dev.podium.events.model.Sample;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/** A run's series as ingest stores them: one head per kind and its points, every sample kept (stride 1). */
public final class SeriesSeeds {

    private SeriesSeeds() {}

    public static void series(Connection c, UUID runId, String kind, String unit, List<Sample> samples)
            throws SQLException {
        try (PreparedStatement head = c.prepareStatement("""
                        INSERT INTO proj_run_series_head (run_id, series, unit, samples, events, stride, last_position)
                        VALUES (?, ?, ?, ?, 1, 1, 0)""");
                PreparedStatement point = c.prepareStatement("""
                        INSERT INTO proj_run_series_point (run_id, series, idx, t, value, repetition, device)
                        VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            head.setObject(1, runId);
            head.setString(2, kind);
            head.setString(3, unit);
            head.setLong(4, samples.size());
            head.executeUpdate();
            for (int i = 0; i < samples.size(); i++) {
                Sample s = samples.get(i);
                point.setObject(1, runId);
                point.setString(2, kind);
                point.setLong(3, i);
                point.setDouble(4, s.t());
                point.setDouble(5, s.value());
                point.setObject(6, s.repetition());
                point.setObject(7, s.device());
                point.addBatch();
            }
            point.executeBatch();
        }
    }
}
