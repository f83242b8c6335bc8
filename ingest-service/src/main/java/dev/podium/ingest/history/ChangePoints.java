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
import java.time.Instant;
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

    /** The change to {@code history_state}'s totals, or the totals: histories and their points. */
    public record Totals(long histories, long points) {

        Totals minus(Totals other) {
            return new Totals(histories - other.histories, points - other.points);
        }
    }

    /** What {@link #update} did: the steps that had no row before, and how it changed the totals of the histories. */
    public record Update(List<FoundStep> newSteps, Totals change) {

        static final Update NONE = new Update(List.of(), new Totals(0, 0));
    }

    /**
     * Recomputes the rows of {@code histories} from the read models on {@code c}, writes only the rows that differ from
     * the stored ones (appending a point usually moves the last step's level alone), and returns the steps that had no
     * row before (new steps; a step whose levels moved keeps its id, the history and its first run) with the change to
     * the totals. A history one of whose named runs changed after its points were read is left as it is: the batch that
     * changed it noted it in {@code history_touched}, and the next round reads it whole again.
     */
    public static Update update(Connection c, Collection<HistoryId> histories) throws SQLException {
        if (histories.isEmpty()) {
            return Update.NONE;
        }
        List<HistoryId> ordered =
                histories.stream().distinct().sorted(HistoryId.ORDER).toList();
        Map<HistoryId, List<HistoryPoint>> points = read(c, ordered);
        Map<HistoryId, List<StepDetector.Step>> detected = new HashMap<>();
        Map<HistoryId, List<RunDetails.Of>> named = new HashMap<>();
        for (Map.Entry<HistoryId, List<HistoryPoint>> e : points.entrySet()) {
            List<StepDetector.Step> steps = DETECTOR.detect(means(e.getValue()));
            detected.put(e.getKey(), steps);
            named.put(e.getKey(), named(e.getKey(), e.getValue(), steps));
        }
        Map<RunDetails.Of, RunDetails> details = details(
                c, named.values().stream().flatMap(List::stream).distinct().toList());
        List<HistoryId> settled = ordered.stream()
                .filter(h -> !points.containsKey(h) || details.keySet().containsAll(named.get(h)))
                .toList();
        List<HistoryColumns> searched = new ArrayList<>();
        Set<ChangePointRow> found = new LinkedHashSet<>();
        Map<HistoryId, Double> noise = new HashMap<>();
        for (HistoryId h : settled) {
            List<HistoryPoint> historyPoints = points.get(h);
            if (historyPoints != null) {
                HistoryColumns history = history(h, historyPoints, details);
                searched.add(history);
                noise.put(h, history.sigma());
                found.addAll(steps(h, historyPoints, detected.get(h), details));
            }
        }
        Set<ChangePointRow> stored = storedSteps(c, settled);
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
        Totals before = storedTotals(c, settled);
        writeHistories(c, settled.stream().filter(h -> !points.containsKey(h)).toList(), searched);
        Totals after = new Totals(
                searched.size(),
                searched.stream().mapToLong(HistoryColumns::points).sum());
        List<FoundStep> newSteps = added.stream()
                .filter(r -> !storedKeys.contains(ChangePointKey.of(r)))
                .map(r -> new FoundStep(r, noise.get(r.history())))
                .toList();
        return new Update(newSteps, after.minus(before));
    }

    private static double[] means(List<HistoryPoint> points) {
        return points.stream().mapToDouble(HistoryPoint::mean).toArray();
    }

    /** The runs a history's rows show details of: its oldest point (the benchmark) and the two runs around each step. */
    private static List<RunDetails.Of> named(HistoryId h, List<HistoryPoint> points, List<StepDetector.Step> steps) {
        List<RunDetails.Of> out = new ArrayList<>();
        out.add(new RunDetails.Of(h, points.get(0).runId()));
        for (StepDetector.Step s : steps) {
            out.add(new RunDetails.Of(h, points.get(s.index() - 1).runId()));
            out.add(new RunDetails.Of(h, points.get(s.index()).runId()));
        }
        return out;
    }

    /** The steps of one history, given its points oldest first, the steps found in them and their runs' details. */
    static List<ChangePointRow> steps(
            HistoryId h,
            List<HistoryPoint> points,
            List<StepDetector.Step> steps,
            Map<RunDetails.Of, RunDetails> details) {
        List<ChangePointRow> out = new ArrayList<>();
        for (StepDetector.Step s : steps) {
            HistoryPoint first = points.get(s.index());
            RunDetails firstRun = details.get(new RunDetails.Of(h, first.runId()));
            RunDetails previousRun =
                    details.get(new RunDetails.Of(h, points.get(s.index() - 1).runId()));
            boolean lower = Direction.LOWER_IS_BETTER.name().equals(firstRun.direction());
            boolean worse = lower ? s.after() > s.before() : s.after() < s.before();
            out.add(new ChangePointRow(
                    h.keyId(),
                    h.metric(),
                    h.deviceId(),
                    first.runId(),
                    worse ? ChangePointRow.REGRESSION : ChangePointRow.IMPROVEMENT,
                    firstRun.benchmark(),
                    firstRun.unit(),
                    s.before(),
                    s.after(),
                    s.index(),
                    first.startedAt(),
                    previousRun.frameworkVersion(),
                    firstRun.frameworkVersion()));
        }
        return out;
    }

    /** A history's row: its benchmark, its number of points and their noise σ (none below two points). */
    private static HistoryColumns history(
            HistoryId h, List<HistoryPoint> points, Map<RunDetails.Of, RunDetails> details) {
        double[] y = means(points);
        return new HistoryColumns(
                h.keyId(),
                h.metric(),
                h.deviceId(),
                details.get(new RunDetails.Of(h, points.get(0).runId())).benchmark(),
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
     * an ordered index-only range of {@code proj_cell_run_history_points_idx} (V92), whose WHERE clause the filter repeats word
     * for word so that the planner can use it. A row is the history's ordinal and the three figures detection needs:
     * a round reads tens of thousands of points, and each column more is that many values to send and parse. The rows
     * are ordered here, per history: sorting all of a round's points by history in the query took most of its time.
     */
    private static Map<HistoryId, List<HistoryPoint>> read(Connection c, List<HistoryId> histories)
            throws SQLException {
        Map<Integer, List<HistoryPoint>> read = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT h.ord, p.run_id, floor(extract(epoch FROM p.started_at) * 1000000)::bigint, p.mean
                FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS h(key_id, metric, device_id, ord)
                CROSS JOIN LATERAL (
                    SELECT c.run_id, c.started_at, c.mean
                    FROM proj_cell_run c
                    WHERE c.key_id = h.key_id AND c.metric = h.metric AND c.device_id = h.device_id
                      AND c.valid AND c.started_at IS NOT NULL AND c.mean IS NOT NULL
                    ORDER BY c.started_at DESC, c.run_id DESC LIMIT ?) AS p""")) {
            bindHistories(c, ps, histories);
            ps.setInt(4, StepDetector.MAX_POINTS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    read.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>())
                            .add(new HistoryPoint(
                                    rs.getObject(2, UUID.class), instantOfMicros(rs.getLong(3)), rs.getDouble(4)));
                }
            }
        }
        Map<HistoryId, List<HistoryPoint>> out = new LinkedHashMap<>();
        for (int i = 0; i < histories.size(); i++) {
            List<HistoryPoint> points = read.get(i + 1);
            if (points != null) {
                points.sort(HistoryPoint.ORDER);
                out.put(histories.get(i), points);
            }
        }
        return out;
    }

    private static Instant instantOfMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** The details of {@code runs} that are points of their histories now; a run that no longer is has none. */
    private static Map<RunDetails.Of, RunDetails> details(Connection c, List<RunDetails.Of> runs) throws SQLException {
        Map<RunDetails.Of, RunDetails> out = new HashMap<>();
        if (runs.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT g.ord, c.benchmark, c.unit, c.direction, c.framework_version
                FROM unnest(?::text[], ?::text[], ?::text[], ?::uuid[])
                    WITH ORDINALITY AS g(key_id, metric, device_id, run_id, ord)
                JOIN proj_cell_run c USING (key_id, metric, device_id, run_id)
                WHERE c.valid AND c.started_at IS NOT NULL AND c.mean IS NOT NULL""")) {
            bindHistories(c, ps, runs.stream().map(RunDetails.Of::history).toList());
            ps.setArray(
                    4,
                    c.createArrayOf(
                            "uuid", runs.stream().map(RunDetails.Of::runId).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(
                            runs.get(rs.getInt(1) - 1),
                            new RunDetails(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
                }
            }
        }
        return out;
    }

    /** The totals of the stored rows of {@code histories}. */
    private static Totals storedTotals(Connection c, List<HistoryId> histories) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT count(*), coalesce(sum(p.points), 0)
                FROM unnest(?::text[], ?::text[], ?::text[]) AS h(key_id, metric, device_id)
                JOIN proj_history p USING (key_id, metric, device_id)""")) {
            bindHistories(c, ps, histories);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Totals(rs.getLong(1), rs.getLong(2));
            }
        }
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
