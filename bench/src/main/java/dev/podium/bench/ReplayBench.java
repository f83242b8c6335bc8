package dev.podium.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Replay: loads stored events straight into event_store, then times ingest-service's {@code POST /admin/rebuild}. */
final class ReplayBench {

    private ReplayBench() {}

    @Command(
            name = "replay-load",
            mixinStandardHelpOptions = true,
            description = "migrate a database and store N result events in event_store as ingest would have")
    static final class Load implements Callable<Integer> {

        @Option(names = "--jdbc", required = true)
        String jdbc;

        @Option(names = "--events", defaultValue = "100000")
        int events;

        @Option(names = "--keys", defaultValue = "200")
        int keys;

        @Override
        public Integer call() throws Exception {
            Db.migrate(jdbc);
            ResultEvents gen = new ResultEvents("replay", keys, new byte[32]);
            long t0 = System.nanoTime();
            try (EventStoreLoader store = new EventStoreLoader(jdbc, "bench-key", gen.codec())) {
                for (long run = 0; store.stored() < events; run++) {
                    for (ResultEvents.Signed s : gen.signedRun(run)) {
                        store.add(s);
                    }
                }
            }
            System.out.printf("replay: stored %d events in %.1f s%n", events, (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = "time POST /admin/rebuild of a running ingest-service over its stored events")
    static final class Run implements Callable<Integer> {

        @Option(names = "--url", required = true, description = "ingest-service, e.g. http://127.0.0.1:29082")
        String url;

        @Option(names = "--token", required = true, description = "an admin token")
        String token;

        @Option(names = "--jdbc", required = true)
        String jdbc;

        @Option(names = "--ingest-report", description = "a report of the ingest benchmark: its sustained rate")
        Path ingestReport;

        @Option(names = "--report")
        Path reportFile;

        @Override
        public Integer call() throws Exception {
            Report report = new Report(reportFile);
            long stored;
            try (Connection c = Db.connect(jdbc)) {
                stored = Db.count(c, "SELECT count(*) FROM event_store");
            }
            double seconds = Rebuild.post(url, token).succeeded().seconds();
            double rate = stored / seconds;
            report.line(
                    "replay: rebuilt the projections from %d stored events in %.1f s: %.0f events/s",
                    stored, seconds, rate);
            report.line("replay: rows %s", Db.rowCounts(jdbc));
            Double ingest = ingestRate();
            if (ingest != null) {
                double ratio = rate / ingest;
                report.line(
                        "replay: ratio to the live ingest rate (%.0f events/s) %.2fx (target >= 1.5x: %s)",
                        ingest, ratio, Report.verdict(ratio >= 1.5));
            } else {
                report.line("replay: no ingest report given: run ./podium bench ingest first for the ratio");
            }
            return 0;
        }

        private Double ingestRate() throws Exception {
            if (ingestReport == null || !Files.exists(ingestReport)) {
                return null;
            }
            Double rate = null;
            for (String line : Files.readAllLines(ingestReport)) {
                var m = Pattern.compile("^ingest: sustained ([0-9.]+) events/s").matcher(line);
                if (m.find()) {
                    rate = Double.parseDouble(m.group(1));
                }
            }
            return rate;
        }
    }
}
