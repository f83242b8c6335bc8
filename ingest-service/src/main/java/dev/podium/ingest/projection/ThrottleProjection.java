package dev.podium.ingest.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ThrottleSpan;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.validate.ThrottleCheck;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * {@code proj_run_throttle_head} and {@code proj_run_throttle}: the server's own {@code not_throttled} check. It keeps
 * each run's devices (from RunStarted) and, as running sums, the throttle reasons its measured window's samples showed;
 * when the run completes it judges the check with {@link ThrottleCheck}, the agent's definition, and puts that in the
 * run's validity in place of whatever the agent claimed, so a run that reported a thermal slowdown or ran under a lowered
 * power limit is not counted however its RunCompleted reads. It runs after {@link RunProjection}, whose rows it amends.
 * A head remembers the last event position folded in, so applying an event twice changes nothing.
 */
@ApplicationScoped
public class ThrottleProjection implements Projection {

    static final List<String> TABLES = List.of("proj_run_throttle", "proj_run_throttle_head");

    private static final ObjectMapper MAPPER = EventCodec.newMapper();

    /** What the batch brought, per run, in position order. */
    private static final class Pending {
        final Map<UUID, List<AcceleratorDevice>> devices = new LinkedHashMap<>();
        final Map<UUID, List<StoredEvent>> samples = new LinkedHashMap<>();
        final Set<UUID> completed = new LinkedHashSet<>();
        final Map<UUID, Long> lastPosition = new HashMap<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        Object p = event.envelope().payload();
        Pending pending = touched.state(Pending.class, Pending::new);
        if (p instanceof RunStarted r && r.devices() != null) {
            pending.devices.put(r.runId(), r.devices());
            pending.lastPosition.merge(r.runId(), event.position(), Math::max);
        } else if (p instanceof MetricSampled m && m.series() == SeriesKind.THROTTLE_REASONS) {
            pending.samples.computeIfAbsent(m.runId(), id -> new ArrayList<>()).add(event);
            pending.lastPosition.merge(m.runId(), event.position(), Math::max);
        } else if (p instanceof RunCompleted r) {
            pending.completed.add(r.runId());
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        Set<UUID> runs = new TreeSet<>(pending.lastPosition.keySet());
        if (!runs.isEmpty()) {
            fold(c, pending, runs);
        }
        if (!pending.completed.isEmpty()) {
            judge(c, new TreeSet<>(pending.completed));
        }
        pending.devices.clear();
        pending.samples.clear();
        pending.completed.clear();
        pending.lastPosition.clear();
    }

    /** Adds the batch's devices and window samples to each run's head and spans, skipping what a head already holds. */
    private static void fold(Connection c, Pending pending, Set<UUID> runs) throws SQLException {
        Map<UUID, Long> folded = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run_throttle_head (run_id) SELECT unnest(?::uuid[]) ON CONFLICT DO NOTHING""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT run_id, last_position FROM proj_run_throttle_head WHERE run_id = ANY(?::uuid[])
                ORDER BY run_id FOR UPDATE""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    folded.put(rs.getObject(1, UUID.class), rs.getLong(2));
                }
            }
        }
        try (PreparedStatement head = c.prepareStatement("""
                        UPDATE proj_run_throttle_head SET devices = coalesce(?::jsonb, devices),
                            samples = samples + ?, last_position = ? WHERE run_id = ?""");
                PreparedStatement span = c.prepareStatement("""
                        INSERT INTO proj_run_throttle (run_id, device, reason, samples, first_t, last_t)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (run_id, device, reason) DO UPDATE SET
                            samples = proj_run_throttle.samples + excluded.samples,
                            first_t = least(proj_run_throttle.first_t, excluded.first_t),
                            last_t = greatest(proj_run_throttle.last_t, excluded.last_t)""")) {
            for (UUID run : runs) {
                long before = folded.getOrDefault(run, 0L);
                long last = pending.lastPosition.get(run);
                if (last <= before) {
                    continue;
                }
                List<Sample> fresh = new ArrayList<>();
                for (StoredEvent e : pending.samples.getOrDefault(run, List.of())) {
                    if (e.position() > before) {
                        fresh.addAll(((MetricSampled) e.envelope().payload()).samples());
                    }
                }
                for (ThrottleSpan s : ThrottleSpan.of(fresh)) {
                    span.setObject(1, run);
                    span.setInt(2, s.device());
                    span.setString(3, s.reason().name());
                    span.setLong(4, s.samples());
                    span.setDouble(5, s.firstT());
                    span.setDouble(6, s.lastT());
                    span.addBatch();
                }
                List<AcceleratorDevice> devices = pending.devices.get(run);
                head.setString(1, devices == null ? null : Json.of(devices));
                head.setLong(2, ThrottleSpan.inWindow(fresh));
                head.setLong(3, last);
                head.setObject(4, run);
                head.addBatch();
            }
            span.executeBatch();
            head.executeBatch();
        }
    }

    /** Puts the server's not_throttled in place of the agent's for each completed run there is something to judge. */
    private static void judge(Connection c, Set<UUID> runs) throws SQLException {
        Map<UUID, List<ThrottleSpan>> spans = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT run_id, device, reason, samples, first_t, last_t FROM proj_run_throttle
                WHERE run_id = ANY(?::uuid[])""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    spans.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>())
                            .add(new ThrottleSpan(
                                    rs.getInt(2),
                                    ThrottleReason.valueOf(rs.getString(3)),
                                    rs.getLong(4),
                                    rs.getDouble(5),
                                    rs.getDouble(6)));
                }
            }
        }
        try (PreparedStatement read = c.prepareStatement("""
                        SELECT r.run_id, r.validity::text, h.devices::text, coalesce(h.samples, 0), r.duration_seconds
                        FROM proj_run r LEFT JOIN proj_run_throttle_head h USING (run_id)
                        WHERE r.run_id = ANY(?::uuid[]) AND r.status = 'completed' AND r.validity IS NOT NULL
                        ORDER BY r.run_id FOR UPDATE OF r""");
                PreparedStatement write =
                        c.prepareStatement("UPDATE proj_run SET validity = ?::jsonb, valid = ? WHERE run_id = ?")) {
            read.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    UUID run = rs.getObject(1, UUID.class);
                    List<AcceleratorDevice> devices = read(rs.getString(3), new TypeReference<>() {});
                    Optional<ValidityCheck> check = ThrottleCheck.judge(
                            devices, rs.getLong(4), spans.getOrDefault(run, List.of()), rs.getObject(5, Double.class));
                    if (check.isEmpty()) {
                        continue;
                    }
                    List<ValidityCheck> validity =
                            new ArrayList<>(read(rs.getString(2), new TypeReference<List<ValidityCheck>>() {}));
                    validity.removeIf(v -> v.name().equals(ThrottleCheck.NAME));
                    validity.add(check.get());
                    write.setString(1, Json.of(validity));
                    write.setBoolean(2, RunProjection.allPassed(validity));
                    write.setObject(3, run);
                    write.addBatch();
                }
            }
            write.executeBatch();
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        if (json == null) {
            return null;
        }
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored " + type.getType() + " does not bind", e);
        }
    }
}
