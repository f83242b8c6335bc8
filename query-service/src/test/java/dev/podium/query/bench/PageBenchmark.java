package dev.podium.query.bench;

import dev.podium.events.model.ComparisonKey;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;

/**
 * The page benchmark (a command, not a test): {@code load} fills a database with 1,000,000 results over 50 devices and 20
 * benchmarks; {@code measure} drives a running query-service with a closed-loop HTTP load, a random URL per request
 * (random benchmark, key, metric, filters, sort, baseline, devices), and prints p50/p99 latency and throughput of the
 * leaderboard and comparison pages beside a trivial page (one primary-key lookup in the same layout, {@code /keys/{id}}).
 * See bench/page-bench.sh.
 */
public final class PageBenchmark {

    private static final int BENCHMARKS = 20;
    private static final int DEVICES = 50;
    private static final String[] WORKERS = {"0", "1", "2", "4"};
    private static final int[] BATCHES = {8, 16, 32};
    private static final String[] PRECISIONS = {"bf16", "fp16"};

    private PageBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new TreeMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String jdbc = a.getOrDefault("jdbc", "jdbc:postgresql://127.0.0.1:5432/podium_bench");
        switch (args.length == 0 ? "" : args[0]) {
            case "load" -> load(jdbc, Integer.parseInt(a.getOrDefault("results", "1000000")));
            case "measure" -> measure(jdbc, a.getOrDefault("url", "http://127.0.0.1:8089"), Integer.parseInt(a.getOrDefault("seconds", "20")),
                    Integer.parseInt(a.getOrDefault("clients", "4")), a.getOrDefault("pages", ""), a.getOrDefault("client", "socket"));
            default -> {
                System.err.println("usage: PageBenchmark load|measure [--jdbc URL] [--results N] [--url URL] [--seconds S] [--clients C] "
                        + "[--pages trivial,leaderboard,leaderboard+software,comparison (default: all)] [--client socket|jdk]");
                System.exit(2);
            }
        }
    }

    static void load(String jdbc, int results) throws Exception {
        Flyway.configure().dataSource(jdbc, "postgres", "").locations("classpath:db/migration").load().migrate();
        try (Connection c = DriverManager.getConnection(jdbc, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("TRUNCATE proj_result, proj_run, proj_leaderboard_row, proj_comparison_key, proj_device, proj_benchmark CASCADE");
            s.execute("CREATE TEMP TABLE bench_key (idx INT PRIMARY KEY, benchmark TEXT, key_id TEXT)");
            c.setAutoCommit(false);
            try (PreparedStatement k = c.prepareStatement("INSERT INTO proj_comparison_key VALUES (?, ?, ?, ?::jsonb)");
                    PreparedStatement bk = c.prepareStatement("INSERT INTO bench_key VALUES (?, ?, ?)")) {
                int idx = 0;
                for (int b = 0; b < BENCHMARKS; b++) {
                    String benchmark = String.format(Locale.ROOT, "bench-%02d", b);
                    s.execute("INSERT INTO proj_benchmark VALUES ('" + benchmark + "', 1)");
                    for (String w : WORKERS) {
                        for (int batch : BATCHES) {
                            for (String p : PRECISIONS) {
                                ComparisonKey key = new ComparisonKey(benchmark, "1", "training", "model-" + b, p, batch, 8, null,
                                        new TreeMap<>(Map.of("dataloader_num_workers", w)));
                                k.setString(1, key.id());
                                k.setString(2, benchmark);
                                k.setString(3, key.canonical());
                                k.setString(4, dev.podium.events.codec.EventCodec.newMapper().writeValueAsString(key.dimensions()));
                                k.addBatch();
                                bk.setInt(1, idx++);
                                bk.setString(2, benchmark);
                                bk.setString(3, key.id());
                                bk.addBatch();
                            }
                        }
                    }
                }
                k.executeBatch();
                bk.executeBatch();
            }
            s.execute("INSERT INTO proj_device SELECT 'bench-device-' || lpad(d::text, 2, '0'), 'Vendor ' || (d % 4), "
                    + "'Bench device ' || d, 1 FROM generate_series(0, " + (DEVICES - 1) + ") d");
            int keys = BENCHMARKS * WORKERS.length * BATCHES.length * PRECISIONS.length;
            long t0 = System.nanoTime();
            s.execute("INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, workload, software, "
                    + "host, started_at, finished_at, duration_seconds, validity, valid, last_position) "
                    + "SELECT md5(i::text)::uuid, 'run/' || md5(i::text)::uuid, 'bench-agent-' || (i % 40), 'completed', k.benchmark, k.key_id, "
                    + "'bench-device-' || lpad(((i / " + keys + ") % " + DEVICES + ")::text, 2, '0'), 8, "
                    + "jsonb_build_object('benchmark', k.benchmark, 'parameters', jsonb_build_object('seed', i % 7)), "
                    + "jsonb_build_object('framework', 'pytorch', 'framework_version', (ARRAY['2.3.0','2.4.0','2.5.1'])[(i / 7) % 3 + 1]), "
                    + "jsonb_build_object('hostname', 'node-' || (i % 200)), "
                    + "timestamptz '2026-01-01' + i * interval '20 seconds', timestamptz '2026-01-01' + i * interval '20 seconds' + interval '10 minutes', "
                    + "600, '[]'::jsonb, true, i FROM generate_series(1, " + results + ") i JOIN bench_key k ON k.idx = i % " + keys);
            s.execute("INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, "
                    + "stdev, min, max, ci95_low, ci95_high, cv, raw_values) "
                    + "SELECT r.run_id, 'throughput', 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, r.key_id, r.device_id, 3, v, v, v * 0.02, "
                    + "v * 0.98, v * 1.02, v * 0.95, v * 1.05, 0.02, ARRAY[v * 0.98, v, v * 1.02] "
                    + "FROM (SELECT run_id, key_id, device_id, 100 + (hashtext(device_id) % 1000 + 1000) % 1000 + random() * 20 AS v "
                    + "FROM proj_run) r");
            s.execute("INSERT INTO proj_leaderboard_row SELECT m.key_id, m.metric, m.device_id, 'measured', min(r.benchmark), 'samples/s', "
                    + "'HIGHER_IS_BETTER', count(*), sum(n), avg(mean), avg(mean) - 2 * stddev(mean) / sqrt(count(*)), "
                    + "avg(mean) + 2 * stddev(mean) / sqrt(count(*)), max(max), stddev(mean) / avg(mean), max(r.started_at) "
                    + "FROM proj_result m JOIN proj_run r USING (run_id) GROUP BY m.key_id, m.metric, m.device_id");
            c.commit();
            c.setAutoCommit(true);
            s.execute("ANALYZE");
            try (ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM proj_result), (SELECT count(*) FROM proj_leaderboard_row)")) {
                rs.next();
                System.out.printf(Locale.ROOT, "loaded %d results, %d leaderboard rows, %d keys, %d devices, %d benchmarks in %.0f s%n",
                        rs.getLong(1), rs.getLong(2), keys, DEVICES, BENCHMARKS, (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    static void measure(String jdbc, String base, int seconds, int clients, String only, String client) throws Exception {
        List<String[]> keys = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbc, "postgres", ""); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT key_id, benchmark FROM proj_comparison_key")) {
            while (rs.next()) {
                keys.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Supplier<String>> pages = new java.util.LinkedHashMap<>();
        pages.put("trivial /keys/{id}", () -> "/keys/" + pick(keys)[0]);
        pages.put("leaderboard", () -> {
            String[] k = pick(keys);
            ThreadLocalRandom r = ThreadLocalRandom.current();
            StringBuilder q = new StringBuilder("/leaderboard?benchmark=").append(k[1]);
            switch (r.nextInt(3)) {
                case 0 -> q.append("&key=").append(k[0]);
                case 1 -> q.append("&workers=").append(WORKERS[r.nextInt(WORKERS.length)]).append("&batch=").append(BATCHES[r.nextInt(3)]);
                default -> q.append("&precision=").append(PRECISIONS[r.nextInt(2)]).append("&source=measured");
            }
            q.append("&sort=").append(List.of("mean", "best", "n", "cv", "device").get(r.nextInt(5))).append("&dir=").append(r.nextBoolean() ? "asc" : "desc");
            return q.toString();
        });
        pages.put("leaderboard+software", () -> {
            String[] k = pick(keys);
            ThreadLocalRandom r = ThreadLocalRandom.current();
            return "/leaderboard?benchmark=" + k[1] + "&key=" + k[0] + "&software=" + List.of("2.3.0", "2.4.0", "2.5.1").get(r.nextInt(3))
                    + "&sort=" + List.of("mean", "best", "n", "cv", "device").get(r.nextInt(5));
        });
        pages.put("comparison", () -> {
            String[] k = pick(keys);
            ThreadLocalRandom r = ThreadLocalRandom.current();
            StringBuilder q = new StringBuilder("/compare?benchmark=").append(k[1]).append("&group=").append(k[0])
                    .append("&param=").append(List.of("dataloader_num_workers", "per_device_batch_size", "precision").get(r.nextInt(3)))
                    .append("&baseline=bench-device-").append(String.format(Locale.ROOT, "%02d", r.nextInt(DEVICES)));
            if (r.nextBoolean()) {
                for (int i = 0; i < 6; i++) {
                    q.append("&devices=bench-device-").append(String.format(Locale.ROOT, "%02d", r.nextInt(DEVICES)));
                }
            }
            return q.toString();
        });
        if (!only.isBlank()) {
            List<String> names = List.of(only.split(","));
            pages.keySet().removeIf(name -> !names.contains(name.split(" ")[0]));
        }
        for (var e : pages.entrySet()) {
            run(client, http, base, e.getValue(), 2, 5);
        }
        System.out.printf(Locale.ROOT, "load tool: %s%n%-22s %8s %8s %8s %10s | %8s %10s %9s%n", client, "page", "p50 ms", "p99 ms", "max ms",
                "req/s (1)", "clients", "req/s (" + clients + ")", "÷ trivial");
        Double trivial = null;
        for (var e : pages.entrySet()) {
            Result one = run(client, http, base, e.getValue(), 1, seconds);
            Result many = run(client, http, base, e.getValue(), clients, seconds);
            if (trivial == null && e.getKey().startsWith("trivial")) {
                trivial = many.throughput();
            }
            System.out.printf(Locale.ROOT, "%-22s %8.2f %8.2f %8.2f %10.0f | %8d %10.0f %9s%s%n", e.getKey(), one.p(50), one.p(99), one.p(100),
                    one.throughput(), clients, many.throughput(), trivial == null ? "" : String.format(Locale.ROOT, "%.2f", many.throughput() / trivial),
                    one.errors + many.errors > 0 ? "  errors: " + (one.errors + many.errors) : "");
        }
    }

    private static String[] pick(List<String[]> keys) {
        return keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
    }

    private record Result(double[] latenciesMs, double seconds, long errors) {
        double p(int percentile) {
            if (latenciesMs.length == 0) {
                return Double.NaN;
            }
            int i = (int) Math.ceil(percentile / 100.0 * latenciesMs.length) - 1;
            return latenciesMs[Math.max(0, Math.min(latenciesMs.length - 1, i))];
        }

        double throughput() {
            return latenciesMs.length / seconds;
        }
    }

    /** Fetches one path and answers its status, reading the whole response. */
    @FunctionalInterface
    private interface Fetch {
        int get(String path) throws IOException, InterruptedException;
    }

    /**
     * The load tool: either the JDK's HTTP client, or (the default) one keep-alive HTTP/1.1 connection per client thread
     * that sends a GET and reads exactly {@code content-length} bytes, like wrk or h2load. The load tool shares the machine
     * with the service, and the JDK client spends more CPU per request and per kilobyte than the trivial page costs the
     * service, which would make the measurement mostly one of the client.
     */
    private static Fetch fetcher(String client, HttpClient http, String base) {
        if ("jdk".equals(client)) {
            return path -> http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray()).statusCode();
        }
        URI uri = URI.create(base);
        return new KeepAliveConnection(uri.getHost(), uri.getPort());
    }

    private static final class KeepAliveConnection implements Fetch {
        private final String host;
        private final int port;
        private final byte[] body = new byte[1 << 16];
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        KeepAliveConnection(String host, int port) {
            this.host = host;
            this.port = port;
        }

        @Override
        public int get(String path) throws IOException {
            try {
                return exchange(path);
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        private int exchange(String path) throws IOException {
            if (socket == null) {
                socket = new Socket(host, port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(10_000);
                in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
                out = socket.getOutputStream();
            }
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String status = line();
            long length = -1;
            boolean closing = false;
            for (String h = line(); !h.isEmpty(); h = line()) {
                String name = h.substring(0, Math.max(0, h.indexOf(':'))).trim().toLowerCase(Locale.ROOT);
                String value = h.substring(h.indexOf(':') + 1).trim();
                if (name.equals("content-length")) {
                    length = Long.parseLong(value);
                } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                    closing = true;
                } else if (name.equals("transfer-encoding")) {
                    throw new IOException("chunked responses are not read by this load tool");
                }
            }
            if (length < 0) {
                throw new IOException("no content-length");
            }
            for (long left = length; left > 0; ) {
                int n = in.read(body, 0, (int) Math.min(body.length, left));
                if (n < 0) {
                    throw new IOException("connection closed after " + (length - left) + " of " + length + " bytes");
                }
                left -= n;
            }
            if (closing) {
                close();
            }
            return Integer.parseInt(status.split(" ")[1]);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder(64);
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }

        private void close() {
            try {
                if (socket != null) {
                    socket.close();
                }
            } catch (IOException ignored) {
                // closing a broken connection
            }
            socket = null;
        }
    }

    private static Result run(String client, HttpClient http, String base, Supplier<String> urls, int clients, int seconds)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<List<Double>> perThread = new ArrayList<>();
        long[] errors = new long[clients];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            List<Double> lat = new ArrayList<>();
            perThread.add(lat);
            int id = t;
            Fetch fetch = fetcher(client, http, base);
            Thread th = new Thread(() -> {
                while (!stop.get()) {
                    String path = urls.get();
                    long t0 = System.nanoTime();
                    try {
                        int status = fetch.get(path);
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (status == 200) {
                            lat.add(ms);
                        } else {
                            errors[id]++;
                        }
                    } catch (Exception e) {
                        errors[id]++;
                    }
                }
                if (fetch instanceof KeepAliveConnection c) {
                    c.close();
                }
            });
            threads.add(th);
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread th : threads) {
            th.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        double[] all = perThread.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).sorted().toArray();
        return new Result(all, elapsed, Arrays.stream(errors).sum());
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
