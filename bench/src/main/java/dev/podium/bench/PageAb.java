package dev.podium.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Two builds of query-service side by side on the same loaded store, both with the cache off: per page, the same
 * random URLs are sent to one build for a slice, then to the other, alternating, so that both see the same machine
 * load and the same mix of parameters. Prints each build's p50, p99 and CPU per request and their ratio (B ÷ A).
 */
@Command(
        name = "pages-ab",
        mixinStandardHelpOptions = true,
        description = "query-service build B against build A, cache off, alternating slices of the same URLs")
final class PageAb implements Callable<Integer> {

    @Mixin
    PageBench.Agent agent;

    @Option(names = "--jar-a", required = true, description = "the baseline build's quarkus-run.jar")
    Path jarA;

    @Option(names = "--jar-b", required = true, description = "the build measured against it")
    Path jarB;

    @Option(names = "--query-db", required = true, description = "the JDBC URL both read")
    String queryDb;

    @Option(names = "--port-a", defaultValue = "29085")
    int portA;

    @Option(names = "--port-b", defaultValue = "29086")
    int portB;

    @Option(names = "--seconds", defaultValue = "30", description = "seconds per page, both builds together")
    int seconds;

    @Option(names = "--warmup", defaultValue = "20", description = "seconds of the same alternation first, not counted")
    int warmup;

    @Option(
            names = "--slice-ms",
            defaultValue = "1000",
            description = "how long one build is measured before the other")
    int sliceMs;

    @Option(names = "--logs", defaultValue = ".podium/bench")
    Path logs;

    /** One build's requests of one page. */
    private static final class Side {
        final List<Double> latenciesMs = new ArrayList<>();
        long cpuTicks;
    }

    @Override
    public Integer call() throws Exception {
        Report report = new Report(agent.reportFile);
        Map<String, Supplier<String>> pages =
                PageUrls.pages(new PageEvents("pages", agent.agent, new byte[0]), agent.results);
        try (QueryServiceProcess a =
                        QueryServiceProcess.start(jarA, queryDb, portA, false, logs.resolve("pages-ab-a.log"));
                QueryServiceProcess b =
                        QueryServiceProcess.start(jarB, queryDb, portB, false, logs.resolve("pages-ab-b.log"))) {
            a.awaitReady(100, 300);
            b.awaitReady(100, 300);
            report.line(
                    "pages-ab: A %s, B %s, cache off, %d ms slices, %d s per page after %d s",
                    jarA, jarB, sliceMs, seconds, warmup);
            report.line(
                    "  %-22s %9s %9s %10s | %9s %9s %10s | %s",
                    "page", "A p50", "A p99", "A µs/req", "B p50", "B p99", "B µs/req", "B÷A CPU");
            for (Map.Entry<String, Supplier<String>> page : pages.entrySet()) {
                alternate(a, b, page.getValue(), warmup);
                Side[] sides = alternate(a, b, page.getValue(), seconds);
                double[] la = latencies(sides[0]);
                double[] lb = latencies(sides[1]);
                double ua = micros(sides[0]);
                double ub = micros(sides[1]);
                report.line(
                        "  %-22s %9.2f %9.2f %10.0f | %9.2f %9.2f %10.0f | %.2f",
                        page.getKey(),
                        Stats.percentile(la, 50),
                        Stats.percentile(la, 99),
                        ua,
                        Stats.percentile(lb, 50),
                        Stats.percentile(lb, 99),
                        ub,
                        ub / ua);
            }
        }
        return 0;
    }

    /** Slices of the same URLs, A then B, for {@code total} seconds. */
    private Side[] alternate(QueryServiceProcess a, QueryServiceProcess b, Supplier<String> urls, int total)
            throws Exception {
        Side[] sides = {new Side(), new Side()};
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(total);
        try (KeepAliveClient ca = new KeepAliveClient("127.0.0.1", portA);
                KeepAliveClient cb = new KeepAliveClient("127.0.0.1", portB)) {
            while (System.nanoTime() < end) {
                String[] slice = new String[4096];
                Arrays.setAll(slice, i -> urls.get());
                int sent = slice(a, ca, slice, slice.length, sides[0]);
                slice(b, cb, slice, sent, sides[1]);
            }
        }
        return sides;
    }

    /** Up to {@code limit} of the URLs for a slice's time; how many were sent. */
    private int slice(QueryServiceProcess qs, KeepAliveClient c, String[] urls, int limit, Side side) throws Exception {
        long before = PageBench.Cpu.ticks(qs.pid());
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sliceMs);
        int sent = 0;
        while (sent < limit && System.nanoTime() < until) {
            long t = System.nanoTime();
            KeepAliveClient.Response r = c.fetch(urls[sent]);
            side.latenciesMs.add((System.nanoTime() - t) / 1e6);
            if (r.status() != 200) {
                throw new IllegalStateException(urls[sent] + " answered " + r.status());
            }
            sent++;
        }
        side.cpuTicks += PageBench.Cpu.ticks(qs.pid()) - before;
        return sent;
    }

    private static double[] latencies(Side s) {
        return s.latenciesMs.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double micros(Side s) {
        return PageBench.Cpu.micros(s.cpuTicks) / Math.max(1, s.latenciesMs.size());
    }
}
