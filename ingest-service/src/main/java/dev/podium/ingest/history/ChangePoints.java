package dev.podium.ingest.history;

import dev.podium.events.model.Direction;
import dev.podium.ingest.projection.Touched;
import dev.podium.ingest.store.Columns;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code proj_change_point} and {@code proj_history}: the steps of histories, found by {@link StepDetector} on the most
 * recent {@link StepDetector#MAX_POINTS} points of each (counted, valid runs, oldest first; runs that started at the
 * same time in run id order). A history's rows are replaced as a whole, so the rows are a function of the read models
 * whatever batches came before.
 */
public final class ChangePoints {

    private static final StepDetector DETECTOR = StepDetector.DEFAULT;

    private ChangePoints() {}

    /** How the steps are found, in words, for the pages. */
    public static String method() {
        return DETECTOR.describe();
    }

    /**
     * Recomputes the rows of {@code histories} from the read models on {@code c}, writes only the rows that differ from
     * the stored ones (appending a point usually moves the last step's level alone), and returns the steps that had no
     * row before (new steps; a step whose levels moved keeps its id, the history and its first run).
     */
    public static List<FoundStep> update(Connection c, Collection<HistoryId> histories) throws SQLException {
        if (histories.isEmpty()) {
            return List.of();
        }
        List<HistoryId> ordered =
                histories.stream().distinct().sorted(HistoryId.ORDER).toList();
        Map<HistoryId, List<HistoryPoint>> points = read(c, ordered);
        List<HistoryColumns> searched = new ArrayList<>();
        Set<ChangePointRow> found = new LinkedHashSet<>();
        Map<HistoryId, Double> noise = new HashMap<>();
        for (Map.Entry<HistoryId, List<HistoryPoint>> e : points.entrySet()) {
            HistoryColumns history = history(e.getKey(), e.getValue());
            searched.add(history);
            noise.put(e.getKey(), history.sigma());
            found.addAll(steps(e.getKey(), e.getValue()));
        }
        Set<ChangePointRow> stored = storedSteps(c, ordered);
        Set<ChangePointKey> storedKeys = stored.stream().map(ChangePointKey::of).collect(Collectors.toSet());
        List<ChangePointRow> added =
                found.stream().filter(r -> !stored.contains(r)).toList();
        deleteSteps(
                c,
                stored.stream()
                        .filter(r -> !found.contains(r))
                        .map(ChangePointKey::of)
                        .toList());
        insert(c, added);
        writeHistories(c, ordered.stream().filter(h -> !points.containsKey(h)).toList(), searched);
        return added.stream()
                .filter(r -> !storedKeys.contains(ChangePointKey.of(r)))
                .map(r -> new FoundStep(r, noise.get(r.history())))
                .toList();
    }

    /** The steps of one history, given its points oldest first. */
    static List<ChangePointRow> steps(HistoryId h, List<HistoryPoint> points) {
        double[] y = points.stream().mapToDouble(HistoryPoint::mean).toArray();
        List<ChangePointRow> out = new ArrayList<>();
        for (StepDetector.Step s : DETECTOR.detect(y)) {
            HistoryPoint first = points.get(s.index());
            HistoryPoint previous = points.get(s.index() - 1);
            boolean lower = first.direction() != null && first.direction().equals(Direction.LOWER_IS_BETTER.name());
            boolean worse = lower ? s.after() > s.before() : s.after() < s.before();
            out.add(new ChangePointRow(
                    h.keyId(),
                    h.metric(),
                    h.deviceId(),
                    first.runId(),
                    worse ? ChangePointRow.REGRESSION : ChangePointRow.IMPROVEMENT,
                    first.benchmark(),
                    first.unit(),
                    s.before(),
                    s.after(),
                    s.index(),
                    first.startedAt(),
                    previous.frameworkVersion(),
                    first.frameworkVersion()));
        }
        return out;
    }

    /** A history's row: its benchmark, its number of points and their noise σ (none below two points). */
    private static HistoryColumns history(HistoryId h, List<HistoryPoint> points) {
        double[] y = points.stream().mapToDouble(HistoryPoint::mean).toArray();
        return new HistoryColumns(
                h.keyId(),
                h.metric(),
                h.deviceId(),
                points.get(0).benchmark(),
                points.size(),
                y.length < 2 ? null : StepDetector.sigma(y));
    }

    /** The primary key of a step's row. */
    private record ChangePointKey(String keyId, String metric, String deviceId, UUID runId) {

        static ChangePointKey of(ChangePointRow r) {
            return new ChangePointKey(r.keyId(), r.metric(), r.deviceId(), r.runId());
        }
    }

    /**
     * The points of each history, oldest first, in the order of {@code histories}. Each history's most recent points are
     * an ordered index-only range of {@code proj_cell_run_history_idx} (V91), whose WHERE clause the filter repeats word
     * for word so that the planner can use it. The rows are ordered here, per history: sorting all of a round's points
     * by history in the query (a text sort of about 58,000 rows for 200 histories of 290 points) took most of its time.
     */
    private static Map<HistoryId, List<HistoryPoint>> read(Connection c, List<HistoryId> histories)
            throws SQLException {
        Map<HistoryId, List<HistoryPoint>> read = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT h.key_id, h.metric, h.device_id, p.run_id, p.benchmark, p.unit, p.direction, p.started_at, p.mean,
                       p.framework_version
                FROM unnest(?::text[], ?::text[], ?::text[]) AS h(key_id, metric, device_id)
                CROSS JOIN LATERAL (
                    SELECT c.run_id, c.benchmark, c.unit, c.direction, c.started_at, c.mean, c.framework_version
                    FROM proj_cell_run c
                    WHERE c.key_id = h.key_id AND c.metric = h.metric AND c.device_id = h.device_id
                      AND c.valid AND c.started_at IS NOT NULL AND c.mean IS NOT NULL
                    ORDER BY c.started_at DESC, c.run_id DESC LIMIT ?) AS p""")) {
            bindHistories(c, ps, histories);
            ps.setInt(4, StepDetector.MAX_POINTS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    HistoryId h = new HistoryId(rs.getString(1), rs.getString(2), rs.getString(3));
                    Timestamp at = rs.getTimestamp(8);
                    read.computeIfAbsent(h, k -> new ArrayList<>())
                            .add(new HistoryPoint(
                                    rs.getObject(4, UUID.class),
                                    rs.getString(5),
                                    rs.getString(6),
                                    rs.getString(7),
                                    at.toInstant(),
                                    rs.getDouble(9),
                                    rs.getString(10)));
                }
            }
        }
        Map<HistoryId, List<HistoryPoint>> out = new LinkedHashMap<>();
        for (HistoryId h : histories) {
            List<HistoryPoint> points = read.get(h);
            if (points != null) {
                points.sort(HistoryPoint.ORDER);
                out.put(h, points);
            }
        }
        return out;
    }

    private static final Columns<ChangePointRow> STEPS = Columns.of(ChangePointRow.class);
    private static final Columns<ChangePointKey> STEP_KEYS = Columns.of(ChangePointKey.class);
    private static final Columns<HistoryColumns> HISTORIES = Columns.of(HistoryColumns.class);

    private static Set<ChangePointRow> storedSteps(Connection c, List<HistoryId> histories) throws SQLException {
        Set<ChangePointRow> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + STEPS.names() + """
                 FROM unnest(?::text[], ?::text[], ?::text[]) AS h(key_id, metric, device_id)
                JOIN proj_change_point p USING (key_id, metric, device_id)""")) {
            bindHistories(c, ps, histories);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Timestamp at = rs.getTimestamp(11);
                    out.add(new ChangePointRow(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getObject(4, UUID.class),
                            rs.getString(5),
                            rs.getString(6),
                            rs.getString(7),
                            rs.getDouble(8),
                            rs.getDouble(9),
                            rs.getInt(10),
                            at.toInstant(),
                            rs.getString(12),
                            rs.getString(13)));
                }
            }
        }
        return out;
    }

    private static void deleteSteps(Connection c, List<ChangePointKey> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM proj_change_point p USING "
                + STEP_KEYS.unnest("g")
                + " WHERE p.key_id = g.key_id AND p.metric = g.metric AND p.device_id = g.device_id"
                + " AND p.run_id = g.run_id")) {
            STEP_KEYS.bind(ps, 1, keys);
            ps.executeUpdate();
        }
    }

    /** A row of {@code proj_history} as its columns. */
    private record HistoryColumns(
            String keyId, String metric, String deviceId, String benchmark, int points, Double sigma) {}

    /** One statement for all the rows: a round rewrites hundreds of steps, each a round trip when sent one by one. */
    private static void insert(Connection c, List<ChangePointRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO proj_change_point (" + STEPS.names() + ") SELECT "
                + STEPS.names() + " FROM " + STEPS.unnest("r"))) {
            STEPS.bind(ps, 1, rows);
            ps.executeUpdate();
        }
    }

    /** Upserts the rows of the histories searched where they changed, and deletes those of histories left empty. */
    private static void writeHistories(Connection c, List<HistoryId> empty, List<HistoryColumns> searched)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                DELETE FROM proj_history p USING unnest(?::text[], ?::text[], ?::text[]) AS h(key_id, metric, device_id)
                WHERE p.key_id = h.key_id AND p.metric = h.metric AND p.device_id = h.device_id""")) {
            bindHistories(c, ps, empty);
            ps.executeUpdate();
        }
        if (searched.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO proj_history (" + HISTORIES.names() + ") SELECT "
                + HISTORIES.names() + " FROM " + HISTORIES.unnest("h") + """
                 ON CONFLICT (key_id, metric, device_id) DO UPDATE
                SET benchmark = excluded.benchmark, points = excluded.points, sigma = excluded.sigma
                WHERE (proj_history.benchmark, proj_history.points, proj_history.sigma)
                    IS DISTINCT FROM (excluded.benchmark, excluded.points, excluded.sigma)""")) {
            HISTORIES.bind(ps, 1, searched);
            ps.executeUpdate();
        }
    }

    private static void bindHistories(Connection c, PreparedStatement ps, List<HistoryId> histories)
            throws SQLException {
        ps.setArray(1, textArray(c, histories.stream().map(HistoryId::keyId).toList()));
        ps.setArray(2, textArray(c, histories.stream().map(HistoryId::metric).toList()));
        ps.setArray(3, textArray(c, histories.stream().map(HistoryId::deviceId).toList()));
    }

    private static Array textArray(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray(new String[0]));
    }

    /** The histories a batch touched: those results left, and those the touched runs' results are in now. */
    public static Set<HistoryId> historiesOf(Connection c, Touched touched) throws SQLException {
        Set<HistoryId> out = new LinkedHashSet<>();
        touched.devices().forEach(d -> out.add(new HistoryId(d.keyId(), d.metric(), d.deviceId())));
        out.addAll(historiesOf(c, touched.runs()));
        return out;
    }

    /** The histories the results of {@code runs} are in now. */
    static List<HistoryId> historiesOf(Connection c, Set<UUID> runs) throws SQLException {
        List<HistoryId> out = new ArrayList<>();
        if (runs.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT DISTINCT key_id, metric, device_id FROM proj_result
                WHERE run_id = ANY(?) AND key_id IS NOT NULL AND device_id IS NOT NULL""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray(new UUID[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new HistoryId(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /** Every history that has a result now, in slices, for a rebuild. */
    public static void recomputeAll(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("TRUNCATE proj_change_point, proj_history")) {
            ps.execute();
        }
        List<HistoryId> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT DISTINCT key_id, metric, device_id FROM proj_result
                WHERE key_id IS NOT NULL AND device_id IS NOT NULL ORDER BY 1, 2, 3""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(new HistoryId(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
        for (int i = 0; i < all.size(); i += 500) {
            update(c, all.subList(i, Math.min(all.size(), i + 500)));
        }
    }
}
