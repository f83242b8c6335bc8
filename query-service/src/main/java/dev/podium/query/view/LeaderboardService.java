package dev.podium.query.view;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.ComparisonKey;
import dev.podium.query.data.CellQueries;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.stats.LeaderboardExtrasService;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Builds a leaderboard: one comparison key and one metric at a time, so results with different keys are never ranked
 * together. The filters narrow the benchmark's keys on offer; the rows are the selected key's, read as ingest keeps them
 * (all runs, those that failed a check too, or one framework version's), with their extra columns; a request filters
 * them by source, sorts and ranks them. Every read is of one benchmark's keys or one key's cells.
 */
@ApplicationScoped
public class LeaderboardService {

    public static final String WORKERS = "dataloader_num_workers";
    private static final List<String> SORTS = List.of("mean", "best", "n", "runs", "cv", "ci", "device");

    private final Queries queries;
    private final CellQueries cells;
    private final LeaderboardExtrasService extras;

    private final Margins margins;

    public LeaderboardService(Queries queries, CellQueries cells, LeaderboardExtrasService extras, Margins margins) {
        this.margins = margins;
        this.queries = queries;
        this.cells = cells;
        this.extras = extras;
    }

    public LeaderboardView build(LeaderboardQuery q) {
        Selection s = select(q);
        KeyRow selected = s.selected();
        Board board = selected == null
                ? Board.NONE
                : board(selected, s.allKeys(), s.metric(), q.includeFailing(), s.software(), q.margin());
        String unit = board.rows().isEmpty() ? null : board.rows().get(0).row().unit();
        String direction =
                board.rows().isEmpty() ? null : board.rows().get(0).row().direction();

        String sort = q.sort() != null && SORTS.contains(q.sort()) ? q.sort() : "mean";
        String dir =
                "asc".equals(q.dir()) || "desc".equals(q.dir()) ? q.dir() : LeaderboardView.defaultDir(sort, direction);
        List<Board.Row> sorted = sorted(board, s.source(), sort, dir);
        LeaderboardQuery effective = effective(q, s, sort, dir);
        UnaryOperator<String> keyLinks = effective.keyLinks();
        List<KeyOption> keyOptions = keyOptions(s.candidates(), selected, keyLinks);
        KeyOption keyOption = selected == null ? null : keyOption(selected, true, keyLinks);
        List<KeyRow> allKeys = s.allKeys();
        LeaderboardView view = new LeaderboardView(
                effective,
                options(s.benchmarks(), s.benchmark()),
                options(s.metrics(), s.metric()),
                options(distinct(allKeys, ComparisonKey.SCENARIO), q.scenario()),
                options(distinct(allKeys, ComparisonKey.PRECISION), q.precision()),
                options(distinct(allKeys, ComparisonKey.BATCH_SIZE), q.batch()),
                options(distinct(allKeys, WORKERS), q.workers()),
                options(selected == null ? List.of() : cells.frameworkVersions(selected.keyId()), s.software()),
                options(List.of("measured", "published"), s.source()),
                keyOptions,
                keyOption,
                unit,
                direction,
                sort,
                dir,
                entries(sorted));
        return withExtras(view, board, sorted);
    }

    /**
     * What a request picks, each choice checked against what there is: the benchmark, its keys, the source, the metric,
     * the keys passing the filters that have rows for the metric ({@code candidates}), the key shown (the one named, even
     * where the filters or the metric leave it no rows, else the first candidate) and the framework version.
     */
    private record Selection(
            List<String> benchmarks,
            String benchmark,
            List<KeyRow> allKeys,
            String source,
            List<String> metrics,
            String metric,
            List<KeyRow> candidates,
            KeyRow selected,
            String software) {}

    private Selection select(LeaderboardQuery q) {
        Requested named = Requested.of(queries, q.benchmark(), q.key());
        List<String> benchmarks = named.benchmarks();
        String benchmark = named.benchmark();
        List<KeyRow> allKeys = benchmark == null ? List.of() : queries.keys(benchmark);
        String source = "measured".equals(q.source()) || "published".equals(q.source()) ? q.source() : null;
        Metrics.Choice metrics = metricChoice(queries, benchmark, source, q.metric());
        String metric = metrics.metric();

        List<KeyRow> filtered = allKeys.stream()
                .filter(k -> matches(k.key(), ComparisonKey.SCENARIO, q.scenario()))
                .filter(k -> matches(k.key(), ComparisonKey.PRECISION, q.precision()))
                .filter(k -> matches(k.key(), ComparisonKey.BATCH_SIZE, q.batch()))
                .filter(k -> matches(k.key(), WORKERS, q.workers()))
                .toList();
        Set<String> withRows = benchmark == null
                ? Set.of()
                : queries.keysWithRows(
                        benchmark,
                        metric,
                        source,
                        filtered.stream().map(KeyRow::keyId).toList());
        List<KeyRow> candidates =
                filtered.stream().filter(k -> withRows.contains(k.keyId())).toList();
        KeyRow selected = named.key() != null ? named.key() : candidates.isEmpty() ? null : candidates.get(0);

        String software = q.software() == null || q.software().isBlank() ? null : q.software();
        return new Selection(
                benchmarks, benchmark, allKeys, source, metrics.offered(), metric, candidates, selected, software);
    }

    /** The metric a request asks for among the benchmark's, checked ({@link Metrics#choose}); none without a benchmark. */
    static Metrics.Choice metricChoice(Queries queries, String benchmark, String source, String requested) {
        if (benchmark == null) {
            return new Metrics.Choice(null, List.of());
        }
        return Metrics.choose(requested, queries.metrics(benchmark, source), m -> queries.metricExists(benchmark, m));
    }

    /** The board's rows of the source asked for (all without one), in the order asked for. */
    private static List<Board.Row> sorted(Board board, String source, String sort, String dir) {
        List<Board.Row> sorted = new ArrayList<>(board.rows().stream()
                .filter(r -> source == null || source.equals(r.row().source()))
                .toList());
        sorted.sort(comparator(sort, dir));
        return sorted;
    }

    /** The sorted rows, ranked from 1. */
    private static List<LeaderboardEntry> entries(List<Board.Row> sorted) {
        List<LeaderboardEntry> entries = new ArrayList<>(sorted.size());
        for (Board.Row b : sorted) {
            LeaderboardRow r = b.row();
            entries.add(new LeaderboardEntry(
                    entries.size() + 1,
                    r.deviceId(),
                    b.deviceLabel(),
                    b.knownDevice(),
                    r.source(),
                    r.runs(),
                    r.n(),
                    r.mean(),
                    r.ci95Low(),
                    r.ci95High(),
                    r.best(),
                    r.cv()));
        }
        return entries;
    }

    /** The query as answered: every choice the one made, not the one asked for. */
    private static LeaderboardQuery effective(LeaderboardQuery q, Selection s, String sort, String dir) {
        return new LeaderboardQuery(
                s.benchmark(),
                s.selected() == null ? null : s.selected().keyId(),
                s.metric(),
                q.scenario(),
                q.precision(),
                q.batch(),
                q.workers(),
                s.software(),
                s.source(),
                sort,
                dir,
                q.includeFailing() ? LeaderboardQuery.INCLUDE_FAILING : null,
                q.margin());
    }

    /** The first 200 candidate keys, each with its link. */
    private static List<KeyOption> keyOptions(List<KeyRow> candidates, KeyRow selected, UnaryOperator<String> keyLink) {
        return candidates.stream()
                .limit(200)
                .map(k -> keyOption(k, selected != null && selected.keyId().equals(k.keyId()), keyLink))
                .toList();
    }

    private static KeyOption keyOption(KeyRow k, boolean selected, UnaryOperator<String> keyLink) {
        return new KeyOption(
                k.keyId(), k.canonical(), k.key().label(), k.dimensions(), selected, keyLink.apply(k.keyId()));
    }

    /** The view with the board's extras, their columns in the sorted rows' order; the view as it is without extras. */
    private static LeaderboardView withExtras(LeaderboardView view, Board board, List<Board.Row> sorted) {
        if (board.extras() == null) {
            return view;
        }
        LeaderboardExtras all = board.extras();
        List<LeaderboardExtras.Columns> columns = all.columns().isEmpty()
                ? List.of()
                : sorted.stream().map(Board.Row::columns).toList();
        return view.withExtras(new LeaderboardExtras(all.includingFailing(), all.runsLeftOut(), all.rateOf(), columns));
    }

    /**
     * The rows of one leaderboard before its source filter and sort, each with its device's label and its extra columns
     * (null without extras), and the extras of them all; {@code extras} is null where there are none to show.
     */
    private record Board(List<Row> rows, LeaderboardExtras extras) {

        static final Board NONE = new Board(List.of(), null);

        record Row(LeaderboardRow row, String deviceLabel, boolean knownDevice, LeaderboardExtras.Columns columns) {}
    }

    /** The board of a key and metric, with failing runs counted or not, of the runs with one framework version or all. */
    private Board board(
            KeyRow key,
            List<KeyRow> benchmarkKeys,
            String metric,
            boolean includeFailing,
            String software,
            String margin) {
        List<LeaderboardRow> rows = software != null
                ? cells.versionRows(key.benchmark(), key.keyId(), metric, software)
                : includeFailing ? withFailingRuns(key.keyId(), metric) : queries.leaderboardOfKey(key.keyId(), metric);
        LeaderboardExtras x =
                extras.of(key, benchmarkKeys, metric, includeFailing, rows, margins.of(margin, key.benchmark()));
        List<Board.Row> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            LeaderboardRow r = rows.get(i);
            out.add(new Board.Row(
                    r,
                    Labels.device(r.deviceId()),
                    DeviceAliases.known(r.deviceId()),
                    x.columns().isEmpty() ? null : x.columns().get(i)));
        }
        return new Board(out, x);
    }

    /** Published rows as stored, measured rows over every completed run, those failing a validity check too. */
    private List<LeaderboardRow> withFailingRuns(String keyId, String metric) {
        List<LeaderboardRow> rows = new ArrayList<>(queries.leaderboardOfKey(keyId, metric).stream()
                .filter(r -> "published".equals(r.source()))
                .toList());
        queries.measuredIncludingFailedChecks(List.of(keyId), metric).forEach(m -> rows.add(m.row()));
        return rows;
    }

    /**
     * The sort asked for; ties by device id and source. By the board's device labels, looked up once per board rather
     * than once per comparison.
     */
    private static Comparator<Board.Row> comparator(String sort, String dir) {
        Comparator<Board.Row> c = switch (sort) {
            case "best" -> nullsLast(r -> r.row().best());
            case "n" -> Comparator.comparingInt(r -> r.row().n());
            case "runs" -> Comparator.comparingInt(r -> r.row().runs());
            case "cv" -> nullsLast(r -> r.row().cv());
            case "ci" ->
                nullsLast(r -> r.row().ci95High() == null || r.row().ci95Low() == null
                        ? null
                        : r.row().ci95High() - r.row().ci95Low());
            case "device" -> Comparator.comparing(Board.Row::deviceLabel);
            default -> nullsLast(r -> r.row().mean());
        };
        if ("desc".equals(dir)) {
            c = c.reversed();
        }
        // The sort asked for alone: a device the alias table does not know is marked on its row, not moved.
        return c.thenComparing(r -> r.row().deviceId())
                .thenComparing(r -> r.row().source());
    }

    private static Comparator<Board.Row> nullsLast(Function<Board.Row, Double> f) {
        return Comparator.comparing(f, Comparator.nullsFirst(Comparator.naturalOrder()));
    }

    private static boolean matches(ComparisonKey key, String dimension, String wanted) {
        return wanted == null || wanted.isBlank() || wanted.equals(key.valueOf(dimension));
    }

    /** The values of a dimension under a benchmark's keys, in order. */
    private static List<String> distinct(List<KeyRow> keys, String dimension) {
        Set<String> values = new TreeSet<>(Labels::compareValues);
        keys.forEach(k -> {
            String v = k.key().valueOf(dimension);
            if (v != null) {
                values.add(v);
            }
        });
        return List.copyOf(values);
    }

    static List<Option> options(List<String> values, String selected) {
        return values.stream().map(v -> new Option(v, v, v.equals(selected))).toList();
    }
}
