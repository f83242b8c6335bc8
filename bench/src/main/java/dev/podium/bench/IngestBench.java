package dev.podium.bench;

import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Ingest through a real broker into a running ingest-service, beside the baseline JDBC writer in the same run:
 * <ol>
 * <li>rounds that alternate {@link BaselineWriter} (the same rows for events already in memory) and a backlog of signed
 * events already in the broker: produced in one Kafka transaction, which ingest's read-committed consumer sees only
 * once it commits, all at once; ingest's rate is measured from the commit timestamps of the transactions that made the
 * events visible ({@code pg_xact_commit_timestamp(xmin)});</li>
 * <li>lag: open-loop production at fixed fractions of that maximum; each event's lag is its commit timestamp minus the
 * time it was scheduled to be produced (not when the producer got to it, so a stall is not hidden).</li>
 * </ol>
 * Needs {@code track_commit_timestamp = on} on the ingest database's server.
 */
@Command(
        name = "ingest",
        mixinStandardHelpOptions = true,
        description = "Kafka → event store + projections vs a JDBC baseline")
final class IngestBench implements Callable<Integer> {

    @Option(names = "--bootstrap", required = true)
    String bootstrap;

    @Option(names = "--topic", defaultValue = "podium.events")
    String topic;

    @Option(names = "--jdbc", required = true, description = "ingest-service's database (read only here)")
    String jdbc;

    @Option(names = "--baseline-jdbc", required = true, description = "an empty database for the baseline")
    String baselineJdbc;

    @Option(names = "--key-id", required = true)
    String keyId;

    @Option(names = "--secret", required = true, description = "the agent key's secret (URL-safe base64)")
    String secret;

    @Option(names = "--events", defaultValue = "40000", description = "events in the maximum-rate and baseline phases")
    int events;

    @Option(names = "--warmup", defaultValue = "10000")
    int warmup;

    @Option(names = "--batch", defaultValue = "500", description = "baseline batch size (ingest's max.poll.records)")
    int batch;

    @Option(names = "--keys", defaultValue = "200", description = "comparison keys the runs are spread over")
    int keys;

    @Option(
            names = "--rates",
            split = ",",
            defaultValue = "0.25,0.5,0.75",
            description = "open-loop rates as fractions of the measured maximum")
    List<Double> rates;

    @Option(names = "--rounds", defaultValue = "5", description = "baseline and ingest alternate this many times")
    int rounds;

    @Option(names = "--seconds", defaultValue = "20", description = "seconds of each open-loop phase")
    int seconds;

    @Option(
            names = "--lag-warmup",
            defaultValue = "10",
            description = "seconds of open loop at half the maximum before the measured phases, not counted")
    int lagWarmup;

    @Option(names = "--report", description = "append the results to this file")
    Path reportFile;

    private Report report;
    private String runTag;

    @Override
    public Integer call() throws Exception {
        report = new Report(reportFile);
        runTag = Long.toString(System.currentTimeMillis(), 36);
        byte[] secretBytes = EventSigner.secretBytes(secret);

        double max = maximumRate(secretBytes);
        // Settled only now that the baseline's connection is closed: a backend that stays open reports its inserts to
        // the statistics later, and autovacuum then analyzed the baseline's tables (0.6 s of CPU) in the middle of a
        // measured phase, although they had just been analyzed.
        settle();
        lag(secretBytes, max);
        report.line("ingest: rows in ingest's database  %s", Db.rowCounts(jdbc));
        report.line("ingest: rows in the baseline's     %s", Db.rowCounts(baselineJdbc));
        return 0;
    }

    /** The rounds of baseline and backlog, reported; ingest's sustained events/s over them all. */
    private double maximumRate(byte[] secretBytes) throws Exception {
        Db.migrate(baselineJdbc);
        BaselineWriter writer = new BaselineWriter(new ResultEvents("x", keys, new byte[32]).codec());
        String url = baselineJdbc + (baselineJdbc.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
        try (KafkaProducer<String, byte[]> backlogs = producer("podium-bench-backlog-" + runTag);
                Connection baselineDb = Db.connect(url)) {
            backlogs.initTransactions();
            report.line("ingest: warm-up of both, %d events each", warmup);
            baseline(writer, baselineDb, "warm", warmup);
            backlog(backlogs, new ResultEvents(runTag + "-warm", keys, secretBytes), warmup);
            // Rounds alternate the two, so that a change in the machine's load (other work on it) hits both alike.
            int perRound = events / rounds;
            double baselineSeconds = 0;
            double ingestSeconds = 0;
            double ingestEvents = 0;
            List<Double> ratios = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                double b = baseline(writer, baselineDb, "round" + r, perRound);
                double[] i = backlog(backlogs, new ResultEvents(runTag + "-max" + r, keys, secretBytes), perRound);
                baselineSeconds += perRound / b;
                ingestEvents += i[0];
                ingestSeconds += i[1];
                ratios.add(i[0] / i[1] / b);
                report.line(
                        "ingest: round %d: baseline %.0f events/s, ingest %.0f events/s (%.0f transactions), ratio %.2fx",
                        r, b, i[0] / i[1], i[2], i[0] / i[1] / b);
            }
            double baseline = rounds * perRound / baselineSeconds;
            double max = ingestEvents / ingestSeconds;
            double ratio = max / baseline;
            double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).toArray();
            report.line(
                    "baseline: %.0f events/s (%d events in batches of %d, %d rounds)",
                    baseline, rounds * perRound, batch, rounds);
            report.line("ingest: sustained %.0f events/s over backlogs of %d events", max, perRound);
            report.line(
                    "ingest: ratio to the baseline %.2fx (median of rounds %.2fx; target >= 0.6x: %s)",
                    ratio, Stats.percentile(sorted, 50), Report.verdict(ratio >= 0.6));
            return max;
        }
    }

    /** The open-loop phases at fractions of {@code max} events/s, after an uncounted one at half of it; reported. */
    private void lag(byte[] secretBytes, double max) throws Exception {
        try (KafkaProducer<String, byte[]> producer = producer(null)) {
            if (lagWarmup > 0) {
                openLoop(
                        producer,
                        new ResultEvents(runTag + "-lagwarm", keys, secretBytes),
                        0.5,
                        max * 0.5,
                        lagWarmup,
                        false);
            }
            Map<Double, Double> p99s = new HashMap<>();
            for (double f : rates) {
                p99s.put(
                        f,
                        openLoop(
                                producer,
                                new ResultEvents(runTag + "-lag" + f, keys, secretBytes),
                                f,
                                max * f,
                                seconds,
                                true));
            }
            Double atHalf = p99s.get(0.5);
            if (atHalf != null) {
                report.line(
                        "ingest: p99 lag at half the maximum rate %.0f ms (target <= 200 ms: %s)",
                        atHalf, Report.verdict(atHalf <= 200));
            }
        }
    }

    /** Events/s of the baseline writer over {@code n} new events, in batches of {@code --batch}. */
    private double baseline(BaselineWriter writer, Connection c, String phase, int n) throws Exception {
        ResultEvents gen = new ResultEvents(runTag + "-baseline-" + phase, keys, new byte[32]);
        List<BaselineWriter.Prepared> all = new ArrayList<>(n + 1);
        long offset = 0;
        for (long run = 0; all.size() < n; run++) {
            for (ResultEvents.Signed s : gen.signedRun(run)) {
                all.add(writer.prepare(s.envelope(), s.value(), offset++));
            }
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < all.size(); i += batch) {
            writer.writeBatch(c, all.subList(i, Math.min(all.size(), i + batch)));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double rate = all.size() / seconds;
        return rate;
    }

    /** The agent's producer settings; with a transactional id, for backlogs. */
    private KafkaProducer<String, byte[]> producer(String transactionalId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // The agent's settings (runner-agent's Publisher): 5 ms of linger lets the records of those milliseconds share
        // a
        // request. With 1 ms, as this command used until 2026-11-30, the broker took about one request per record, and
        // on
        // two cores its CPU and this process's came out of what ingest and PostgreSQL had at the lag phases' rates.
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId == null ? "podium-bench" : transactionalId);
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private ProducerRecord<String, byte[]> record(ResultEvents.Signed s) {
        RecordHeaders h = new RecordHeaders();
        h.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        h.add(EventSigner.SIGNATURE_HEADER, s.signature().getBytes(StandardCharsets.US_ASCII));
        return new ProducerRecord<>(topic, null, s.streamId(), s.value(), h);
    }

    private static List<ResultEvents.Signed> generate(ResultEvents gen, int n) {
        List<ResultEvents.Signed> out = new ArrayList<>(n + 1);
        for (long run = 0; out.size() < n; run++) {
            out.addAll(gen.signedRun(run));
        }
        return out;
    }

    /**
     * Puts {@code n} events in the broker in one Kafka transaction, so that ingest sees the whole backlog at once when it
     * commits, and measures how fast ingest drains it: returns the events stored after the first commit that stored any,
     * the seconds from that commit to the last (their quotient is the sustained rate), and the number of transactions.
     *
     * <p>Until 2026-11-30 (session 6) the backlog was produced while ingest read it: on two cores this process and the
     * broker's handling of the incoming records then took CPU from the drain that agents on other hosts would not, and
     * ingest's first transactions of each round waited for records still being sent (batches of 20-300 events at 150 ms
     * each, where a full round's steady state is 500 events every 50-70 ms). The baseline writes events already in memory;
     * ingest now reads events already in the broker. The open-loop phases still produce while ingest reads.
     */
    private double[] backlog(KafkaProducer<String, byte[]> producer, ResultEvents gen, int n) throws Exception {
        List<ResultEvents.Signed> records = generate(gen, n);
        long before = maxPosition();
        producer.beginTransaction();
        for (ResultEvents.Signed s : records) {
            producer.send(record(s));
        }
        producer.flush();
        // The garbage of generating and signing is collected now, not while ingest drains on the same two cores.
        System.gc();
        producer.commitTransaction();
        waitFor(before, records.size());
        try (Connection c = Db.connect(jdbc);
                PreparedStatement ps = c.prepareStatement("""
                SELECT count(*), t FROM (SELECT xmin::text AS x, extract(epoch FROM pg_xact_commit_timestamp(xmin))::float8 AS t
                                         FROM event_store WHERE position > ?) AS s
                GROUP BY x, t ORDER BY t""")) {
            ps.setLong(1, before);
            List<double[]> commits = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    commits.add(new double[] {rs.getLong(1), rs.getDouble(2)});
                }
            }
            double afterFirst = commits.stream().skip(1).mapToDouble(x -> x[0]).sum();
            double span = commits.get(commits.size() - 1)[1] - commits.get(0)[1];
            return new double[] {afterFirst, span, commits.size()};
        }
    }

    /**
     * Open-loop production at {@code rate} events/s for {@code seconds}; returns the p99 lag in ms. A phase not
     * {@code measured} is the warm-up before the measured ones: settling the databases ends in a checkpoint, after which
     * the first change of every page writes the whole page to the WAL, and the service's small-batch path is compiled by
     * the JIT only once it runs; both made the first seconds of the first measured phase its worst (p99 per 2 s of
     * 500-870 ms, then 50-120 ms). A service that has been running meets neither; the warm-up pays for both and is
     * reported on one line, not counted.
     */
    private double openLoop(
            KafkaProducer<String, byte[]> producer,
            ResultEvents gen,
            double fraction,
            double rate,
            int seconds,
            boolean measured)
            throws Exception {
        int n = (int) Math.round(rate * seconds);
        List<ResultEvents.Signed> records = generate(gen, n);
        long before = maxPosition();
        Map<UUID, Long> intended = new HashMap<>(records.size() * 2);
        double[] late = new double[records.size()];
        // The records were just generated and signed: collect that garbage now, not during the phase, where a pause of
        // this process would delay sends and count as lag.
        System.gc();
        long startNanos = System.nanoTime() + 50_000_000L;
        Instant start = Instant.now().plusNanos(startNanos - System.nanoTime());
        long startMicros = ChronoUnit.MICROS.between(Instant.EPOCH, start);
        for (int i = 0; i < records.size(); i++) {
            long due = startNanos + (long) (i * 1e9 / rate);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            ResultEvents.Signed s = records.get(i);
            late[i] = (System.nanoTime() - due) / 1e6;
            intended.put(s.envelope().eventId(), startMicros + (due - startNanos) / 1000);
            producer.send(record(s));
        }
        producer.flush();
        double sent = (System.nanoTime() - startNanos) / 1e9;
        waitFor(before, records.size());
        Lags l = lags(before, intended, startMicros, records.size());
        double p99 = Stats.percentile(l.lags(), 99);
        if (!measured) {
            report.line(
                    "ingest: open-loop warm-up, %d s at %.2f of the maximum = %.0f events/s (not counted): lag p50 %.0f ms, "
                            + "p99 %.0f ms; p99 per %d s: %s",
                    seconds,
                    fraction,
                    rate,
                    Stats.percentile(l.lags(), 50),
                    p99,
                    TIMELINE_WINDOW_SECONDS,
                    timeline(l.lags(), l.dueSeconds(), l.count(), start));
            return p99;
        }
        reportMeasured(fraction, rate, records.size(), sent, l, late, start);
        return p99;
    }

    /**
     * A phase's events as the database saw them, the first {@code count} of each array filled: each one's lag, its way
     * to the insert and from there to the commit, in ms, and when it was due, in seconds from the phase's start.
     */
    private record Lags(double[] lags, double[] toInsert, double[] toCommit, double[] dueSeconds, int count) {}

    /** The lags of the {@code intended} events (each with its due time, µs since the epoch) after {@code before}. */
    private Lags lags(long before, Map<UUID, Long> intended, long startMicros, int size) throws Exception {
        double[] lags = new double[size];
        double[] toInsert = new double[size];
        double[] toCommit = new double[size];
        double[] dueSeconds = new double[size];
        int i = 0;
        // recorded_at is the insert's clock_timestamp(): it splits each lag into the way to the database (Kafka, the
        // poll, the check, the batch ahead) and the rest of its transaction (projections, commit).
        try (Connection c = Db.connect(jdbc);
                PreparedStatement ps = c.prepareStatement("""
                SELECT event_id, (extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000000)::bigint,
                       (extract(epoch FROM recorded_at) * 1000000)::bigint
                FROM event_store WHERE position > ?""")) {
            ps.setLong(1, before);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Long due = intended.get(rs.getObject(1, UUID.class));
                    if (due != null) {
                        lags[i] = (rs.getLong(2) - due) / 1000.0;
                        toInsert[i] = (rs.getLong(3) - due) / 1000.0;
                        dueSeconds[i] = (due - startMicros) / 1e6;
                        toCommit[i++] = (rs.getLong(2) - rs.getLong(3)) / 1000.0;
                    }
                }
            }
        }
        return new Lags(lags, toInsert, toCommit, dueSeconds, i);
    }

    /** The report of a measured phase: its lags, their p99 over time and the producer's own delay ({@code late}). */
    private void reportMeasured(
            double fraction, double rate, int events, double sent, Lags l, double[] late, Instant start) {
        report.line(
                "ingest: open loop at %.2f of the maximum = %.0f events/s (%d events, produced in %.1f s): "
                        + "lag p50 %.0f ms, p99 %.0f ms, max %.0f ms (to the insert p50 %.0f / p99 %.0f ms, insert to commit "
                        + "p50 %.0f / p99 %.0f ms)",
                fraction,
                rate,
                events,
                sent,
                Stats.percentile(l.lags(), 50),
                Stats.percentile(l.lags(), 99),
                Stats.percentile(l.lags(), 100),
                Stats.percentile(l.toInsert(), 50),
                Stats.percentile(l.toInsert(), 99),
                Stats.percentile(l.toCommit(), 50),
                Stats.percentile(l.toCommit(), 99));
        report.line(
                "ingest:   p99 lag (ms) per %d s of the phase: %s",
                TIMELINE_WINDOW_SECONDS, timeline(l.lags(), l.dueSeconds(), l.count(), start));
        report.line(
                "ingest:   the producer's own delay (send() called after its scheduled time): p50 %.1f ms, p99 %.1f ms, "
                        + "max %.1f ms",
                Stats.percentile(late, 50), Stats.percentile(late, 99), Stats.percentile(late, 100));
    }

    /**
     * Vacuums both databases and checkpoints the server before the lag phases. The backlog rounds leave some 100,000
     * fresh rows in each database at once; autovacuum then works through them for tens of seconds, on the same two cores
     * as the broker and the service, in the middle of whichever phase comes next (the server's log showed every stall of
     * those phases under an autovacuum of event_store, proj_run or proj_result). A system ingesting steadily at a fixed
     * rate pays that debt in small steps; the phases measure that state, not the aftermath of the backlog.
     */
    private void settle() throws Exception {
        long t0 = System.nanoTime();
        for (String url : List.of(jdbc, baselineJdbc)) {
            try (Connection c = Db.connect(url);
                    Statement s = c.createStatement()) {
                s.execute("VACUUM (ANALYZE)");
                s.execute("CHECKPOINT");
            }
        }
        report.line(
                "ingest: both databases vacuumed and checkpointed before the lag phases (%.1f s)",
                (System.nanoTime() - t0) / 1e9);
    }

    private static final int TIMELINE_WINDOW_SECONDS = 2;

    /**
     * The p99 lag of each window of scheduled send times, and the UTC time of the worst window: whether a phase's tail
     * is one stall or a steady state, and when to look in the server logs.
     */
    private static String timeline(double[] lags, double[] dueSeconds, int n, Instant start) {
        Map<Integer, List<Double>> windows = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            windows.computeIfAbsent((int) (dueSeconds[k] / TIMELINE_WINDOW_SECONDS), w -> new ArrayList<>())
                    .add(lags[k]);
        }
        StringBuilder out = new StringBuilder();
        int worst = -1;
        double worstP99 = -1;
        for (Map.Entry<Integer, List<Double>> w : windows.entrySet()) {
            double p99 = Stats.percentile(
                    w.getValue().stream().mapToDouble(Double::doubleValue).toArray(), 99);
            out.append(String.format("%.0f ", p99));
            if (p99 > worstP99) {
                worstP99 = p99;
                worst = w.getKey();
            }
        }
        return out
                + String.format(
                        "(worst from %s)",
                        start.plusSeconds((long) worst * TIMELINE_WINDOW_SECONDS)
                                .truncatedTo(ChronoUnit.SECONDS));
    }

    private long maxPosition() throws Exception {
        try (Connection c = Db.connect(jdbc)) {
            return Db.count(c, "SELECT coalesce(max(position), 0) FROM event_store");
        }
    }

    private void waitFor(long afterPosition, int n) throws Exception {
        long deadline = System.nanoTime() + 600_000_000_000L;
        try (Connection c = Db.connect(jdbc)) {
            while (Db.count(c, "SELECT count(*) FROM event_store WHERE position > " + afterPosition) < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("ingest did not store " + n + " events within 600 s");
                }
                Thread.sleep(100);
            }
        }
    }
}
