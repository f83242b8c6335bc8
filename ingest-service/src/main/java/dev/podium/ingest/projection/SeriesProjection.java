package dev.podium.ingest.projection;

import dev.podium.events.model.Sample;
import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code proj_run_series_head} and {@code proj_run_series_point}: each run's series kinds stored downsampled
 * ({@link Downsampling}), so that a batch reads and writes what it brings and at most one series' kept points, never the
 * samples a run already sent; the raw samples stay in the event store. A head remembers the position of the last event
 * folded in, and events at or before it are skipped, so applying an event twice changes nothing.
 */
@ApplicationScoped
public class SeriesProjection implements Projection {

    static final List<String> TABLES = List.of("proj_run_series_point", "proj_run_series_head");

    /** One run's series of one kind. */
    record SeriesId(UUID runId, String series) {}

    /** A {@code proj_run_series_head} row. */
    private record HeadRow(
            UUID runId, String series, String unit, long samples, int events, long stride, long lastPosition) {

        Downsampling downsampling() {
            return new Downsampling(samples, stride);
        }
    }

    /** A {@code proj_run_series_point} row. */
    private record PointRow(
            UUID runId, String series, long idx, double t, double value, Integer repetition, Integer device) {}

    /** The series of which points whose number is not a multiple of the new stride must go. */
    private record ThinnedRow(UUID runId, String series, long stride) {}

    private static final Columns<HeadRow> HEAD = Columns.of(HeadRow.class);
    private static final Columns<PointRow> POINT = Columns.of(PointRow.class);
    private static final Columns<ThinnedRow> THINNED = Columns.of(ThinnedRow.class);

    private static final String READ_HEADS = """
            SELECT h.run_id, h.series, h.unit, h.samples, h.events, h.stride, h.last_position
            FROM proj_run_series_head h JOIN unnest(?::uuid[], ?::text[]) AS t(run_id, series)
              ON h.run_id = t.run_id AND h.series = t.series
            FOR UPDATE OF h""";

    private static final String WRITE_HEADS = """
            INSERT INTO proj_run_series_head (run_id, series, unit, samples, events, stride, last_position)
            SELECT run_id, series, unit, samples, events, stride, last_position FROM %s
            ON CONFLICT (run_id, series) DO UPDATE SET samples = excluded.samples, events = excluded.events,
                stride = excluded.stride, last_position = excluded.last_position""".formatted(HEAD.unnest("x"));

    private static final String THIN = """
            DELETE FROM proj_run_series_point p USING %s
            WHERE p.run_id = x.run_id AND p.series = x.series AND p.idx %% x.stride <> 0""".formatted(THINNED.unnest("x"));

    private static final String WRITE_POINTS = """
            INSERT INTO proj_run_series_point (run_id, series, idx, t, value, repetition, device)
            SELECT run_id, series, idx, t, value, repetition, device FROM %s
            ON CONFLICT (run_id, series, idx) DO NOTHING""".formatted(POINT.unnest("x"));

    /** The batch's MetricSampled events per series, in position order. */
    private static final class Pending {
        final Map<SeriesId, List<StoredEvent>> events = new LinkedHashMap<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof MetricSampled m) {
            touched.state(Pending.class, Pending::new)
                    .events
                    .computeIfAbsent(new SeriesId(m.runId(), m.series().name()), id -> new ArrayList<>())
                    .add(event);
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Map<SeriesId, List<StoredEvent>> pending = touched.state(Pending.class, Pending::new).events;
        if (pending.isEmpty()) {
            return;
        }
        Map<SeriesId, HeadRow> heads = heads(c, pending.keySet().stream().toList());
        Rows<HeadRow> headRows = new Rows<>(HEAD, WRITE_HEADS, h -> new SeriesId(h.runId(), h.series()));
        Rows<ThinnedRow> thinned = new Rows<>(THINNED, THIN, r -> r);
        Rows<PointRow> points = new Rows<>(POINT, WRITE_POINTS, p -> p);
        for (Map.Entry<SeriesId, List<StoredEvent>> e : pending.entrySet()) {
            HeadRow before = heads.get(e.getKey());
            HeadRow after = fold(e.getKey(), before, e.getValue(), points);
            headRows.add(after);
            if (before != null && after.downsampling().thinned(before.downsampling())) {
                thinned.add(new ThinnedRow(after.runId(), after.series(), after.stride()));
            }
        }
        headRows.execute(c);
        thinned.execute(c);
        points.execute(c);
        pending.clear();
    }

    /**
     * The head after the series' new events ({@code before} null for a new series), adding to {@code points} the new
     * samples it keeps: the stride is settled from the count first, so no new point is written and then dropped.
     */
    private static HeadRow fold(SeriesId id, HeadRow before, List<StoredEvent> events, Rows<PointRow> points) {
        long last = before == null ? -1 : before.lastPosition();
        List<MetricSampled> fresh = new ArrayList<>();
        for (StoredEvent e : events) {
            if (e.position() > last) {
                fresh.add((MetricSampled) e.envelope().payload());
                last = e.position();
            }
        }
        Downsampling was = before == null ? Downsampling.NONE : before.downsampling();
        Downsampling now =
                was.plus(fresh.stream().mapToLong(m -> m.samples().size()).sum());
        long index = was.samples();
        for (MetricSampled m : fresh) {
            for (Sample s : m.samples()) {
                if (now.keeps(index)) {
                    points.add(
                            new PointRow(id.runId(), id.series(), index, s.t(), s.value(), s.repetition(), s.device()));
                }
                index++;
            }
        }
        String unit = before != null
                ? before.unit()
                : fresh.isEmpty() ? "" : fresh.get(0).unit();
        int count = (before == null ? 0 : before.events()) + fresh.size();
        return new HeadRow(id.runId(), id.series(), unit, now.samples(), count, now.stride(), last);
    }

    private static Map<SeriesId, HeadRow> heads(Connection c, List<SeriesId> ids) throws SQLException {
        Map<SeriesId, HeadRow> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(READ_HEADS)) {
            ps.setArray(
                    1, c.createArrayOf("uuid", ids.stream().map(SeriesId::runId).toArray()));
            ps.setArray(
                    2,
                    c.createArrayOf("text", ids.stream().map(SeriesId::series).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    HeadRow h = new HeadRow(
                            rs.getObject("run_id", UUID.class),
                            rs.getString("series"),
                            rs.getString("unit"),
                            rs.getLong("samples"),
                            rs.getInt("events"),
                            rs.getLong("stride"),
                            rs.getLong("last_position"));
                    out.put(new SeriesId(h.runId(), h.series()), h);
                }
            }
        }
        return out;
    }
}
