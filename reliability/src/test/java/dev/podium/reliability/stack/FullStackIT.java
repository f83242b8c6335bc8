package dev.podium.reliability.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.cli.AgentMain;
import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.fault.Credentials;
import dev.podium.reliability.fault.Platform;
import dev.podium.reliability.process.ChildProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.QueryProcess;
import dev.podium.reliability.process.WorkDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole platform as it is deployed: a Kafka broker, PostgreSQL, ingest-service and query-service as packaged
 * applications, and, for campaigns, runner-agent's daemon in a JVM of its own. Records come from agents' keys through
 * Kafka and ingest; what the platform then serves is read as a visitor and an operator read it.
 */
class FullStackIT {

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CANNOT = "the interval cannot be computed";
    /** A workload that keeps what it was given, says it in its output, and fails when its point says so. */
    private static final String WORKLOAD = """
            printf %s "$HF_TOKEN" > "$1/$2"
            echo "workload sees $HF_TOKEN"
            echo "$HF_TOKEN" >&2
            sleep 2.2
            echo '{"podium": 1, "type": "metric", "name": "train_samples_per_second", "value": 8.0, "unit": "samples/s", "direction": "higher"}'
            [ "$2" = ok ] || { echo "failing with $HF_TOKEN"; exit 3; }
            """;

    private static Path work;
    private static Platform platform;
    private static QueryProcess query;

    @BeforeAll
    static void start() {
        work = WorkDirs.fresh(Path.of(System.getProperty("podium.reliability.work", "target/reliability"))
                .resolve("full-stack"));
        Path ingestJar = Path.of(
                System.getProperty("podium.ingest.app", "../ingest-service/target/quarkus-app/quarkus-run.jar"));
        Path queryJar =
                Path.of(System.getProperty("podium.query.app", "../query-service/target/quarkus-app/quarkus-run.jar"));
        // the secret campaign's workload is a bash script
        platform = Platform.start(work, ingestJar, List.of("-Dpodium.ingest.workloads.commands=bash"));
        query = new QueryProcess("query", queryJar, work, Ports.freeRun(1), platform.postgres.jdbcUrl());
        query.start();
    }

    @AfterAll
    static void stop() {
        try {
            if (query != null) {
                query.close();
            }
        } finally {
            if (platform != null) {
                platform.close();
            }
        }
    }

    @Test
    void extremeButFiniteValuesAnswer200AndTheComparisonSaysItsIntervalCannotBeComputed() {
        Credentials key = platform.admin.issue("extreme-agent");
        UUID tiny = UUID.randomUUID();
        UUID huge = UUID.randomUUID();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        SampleEvents.completedRun(
                        tiny,
                        key.agentId(),
                        "intel-gaudi2",
                        SampleEvents.referenceKey(7),
                        Instant.now(),
                        List.of(1e-300, 1.01e-300, 1.02e-300))
                .forEach(e -> records.add(key.signed(e)));
        SampleEvents.completedRun(
                        huge,
                        key.agentId(),
                        "nvidia-h100-sxm-80gb",
                        SampleEvents.referenceKey(7),
                        Instant.now(),
                        List.of(0.9e150, 0.905e150, 0.91e150))
                .forEach(e -> records.add(key.signed(e)));
        platform.produce(records);
        for (UUID run : List.of(tiny, huge)) {
            await().atMost(WAIT)
                    .until(() -> query.get("/api/v1/runs/" + run).body().contains("\"completed\""));
        }

        String filter = "benchmark=" + SampleEvents.REFERENCE_BENCHMARK + "&metric=" + SampleEvents.THROUGHPUT_METRIC;
        String compare = filter + "&param=dataloader_num_workers&baseline=intel-gaudi2";
        Map<String, QueryProcess.Page> pages = fetch(List.of(
                "/compare?" + compare,
                "/api/v1/comparison?" + compare,
                "/api/v1/comparison.csv?" + compare,
                "/leaderboard?" + filter,
                "/api/v1/leaderboard?" + filter,
                "/api/v1/leaderboard.csv?" + filter,
                "/runs/" + tiny,
                "/runs/" + huge,
                "/devices/intel-gaudi2",
                "/benchmarks/" + SampleEvents.REFERENCE_BENCHMARK,
                "/"));
        pages.forEach((path, page) -> {
            assertThat(page.status()).as(path).isEqualTo(200);
            if (!path.startsWith("/api/")) {
                assertThat(shown(page))
                        .as(path + ": no figure written out in hundreds of digits")
                        .doesNotContainPattern("\\d{20}");
            }
        });
        // 0.905e150 against 1.01e-300: a ratio of 8.96e449, beyond a double, and an interval that cannot be computed
        assertThat(shown(pages.get("/compare?" + compare))).contains("9.05e+149", "8.96e+449", CANNOT);
        assertThat(pages.get("/api/v1/comparison?" + compare).body()).contains(CANNOT);
        assertThat(shown(pages.get("/leaderboard?" + filter)))
                .contains("Intel Gaudi 2", "H100", "9.05e+149", "1.01e-300");
    }

    /**
     * A page's text as a reader sees it, without its tags and their attributes, and without a run's raw event payloads
     * (its {@code <pre>} blocks), which are shown as stored: PostgreSQL writes a jsonb 1e-300 in all its 300 decimals.
     */
    private static String shown(QueryProcess.Page page) {
        return page.body().replaceAll("(?s)<pre>.*?</pre>", " ").replaceAll("(?s)<[^>]*>", " ");
    }

    @Test
    void aSecretCampaignValueReachesItsWorkloadAndIsOnNoPageApiAnswerViewTableLogOrFileOfThePlatform()
            throws IOException, SQLException {
        String secret = "s3cr3t-" + UUID.randomUUID();
        String pool = "secret-pool";
        String benchmark = "secret-bench";
        // The workload runs as the user nobody and writes what it was given here.
        Path seen = Files.setPosixFilePermissions(
                Files.createTempDirectory("podium-secret-seen-"), PosixFilePermissions.fromString("rwxrwxrwx"));
        Path keyFile = Files.setPosixFilePermissions(
                Files.writeString(work.resolve("secret-agent.key"), platform.admin.keyFile("secret-agent", pool)),
                PosixFilePermissions.fromString("rw-------"));
        String campaignId = platform.admin
                .post("/admin/campaigns", campaign(benchmark, pool, seen, secret), 201)
                .get("campaign_id")
                .asText();

        Path agentLog = work.resolve("secret-agent.log");
        try (ChildProcess agent = ChildProcess.java(
                "secret-agent",
                agentLog,
                List.of("-Xmx256m"),
                AgentMain.class.getName(),
                List.of(
                        "daemon",
                        "--key-file",
                        keyFile.toString(),
                        "--home",
                        work.resolve("secret-agent-home").toString(),
                        "--bootstrap-servers",
                        platform.bootstrap(),
                        "--heartbeat-interval",
                        "1",
                        "--flush-timeout",
                        "5",
                        "--workload-user",
                        "nobody",
                        "--allow-commands",
                        "bash"))) {
            await().atMost(WAIT)
                    .until(() -> jobs(campaignId).stream()
                            .allMatch(j -> List.of("done", "failed")
                                    .contains(j.get("state").asText())));
        }
        List<JsonNode> jobs = jobs(campaignId);
        Map<String, String> runs = new LinkedHashMap<>();
        for (JsonNode j : jobs) {
            runs.put(
                    j.get("parameters").get("outcome").asText(), j.get("run_id").asText());
        }
        assertThat(Files.readString(seen.resolve("ok")))
                .as("what the workload was given")
                .isEqualTo(secret);
        assertThat(Files.readString(seen.resolve("fail"))).isEqualTo(secret);
        await().atMost(WAIT)
                .until(() ->
                        query.get("/api/v1/runs/" + runs.get("fail")).body().contains("\"failed\""));
        JsonNode completed = JSON.readTree(
                        query.get("/api/v1/runs/" + runs.get("ok")).body())
                .get("run");
        assertThat(completed.get("status").asText()).isEqualTo("completed");
        String device = completed.get("deviceId").asText();
        String keyId = completed.get("keyId").asText();

        List<String> paths = new ArrayList<>(List.of(
                "/",
                "/fleet",
                "/api/v1/home",
                "/api/v1/fleet",
                "/leaderboard?benchmark=" + benchmark + "&include=failing",
                "/api/v1/leaderboard?benchmark=" + benchmark,
                "/api/v1/leaderboard.csv?benchmark=" + benchmark,
                "/compare?benchmark=" + benchmark,
                "/api/v1/comparison?benchmark=" + benchmark,
                "/api/v1/comparison.csv?benchmark=" + benchmark,
                "/benchmarks/" + benchmark,
                "/api/v1/benchmarks/" + benchmark,
                "/devices/" + device,
                "/api/v1/devices/" + device,
                "/keys/" + keyId,
                "/api/v1/keys/" + keyId,
                "/regressions",
                "/api/v1/regressions",
                "/regressions.atom",
                "/history?key=" + keyId + "&metric=" + SampleEvents.THROUGHPUT_METRIC + "&device=" + device,
                "/local",
                "/api/v1/local"));
        runs.values().forEach(r -> paths.addAll(List.of("/runs/" + r, "/api/v1/runs/" + r)));
        Map<String, QueryProcess.Page> pages = fetch(paths);
        assertThat(pages.get("/runs/" + runs.get("fail")).body())
                .as("the failed run's log tail, redacted")
                .contains("failing with " + "***");
        pages.forEach((path, page) -> {
            assertThat(page.status()).as(path).isEqualTo(200);
            assertThat(page.body()).as(path).doesNotContain(secret);
        });
        List<String> operator = new ArrayList<>(List.of("/admin/campaigns/" + campaignId, "/admin/rejected"));
        jobs.forEach(j -> operator.add("/admin/jobs/" + j.get("job_id").asText()));
        for (String path : operator) {
            var answer = platform.admin.get(path);
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            assertThat(answer.body()).as(path).doesNotContain(secret);
        }

        // Every row of every table and view, as text (bytea as hex, so a secret stored as bytes in clear shows too).
        String hex = HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8));
        try (Connection c = platform.postgres.connect()) {
            List<String> relations = relations(c);
            assertThat(relations).contains("analytics.events", "public.event_store", "public.campaign_secret");
            for (String relation : relations) {
                try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + relation
                        + " t WHERE strpos(t::text, ?) > 0 OR strpos(t::text, ?) > 0")) {
                    ps.setString(1, secret);
                    ps.setString(2, hex);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertThat(rs.getLong(1)).as(relation).isZero();
                    }
                }
            }
        }
        // Every file the platform wrote: the services' and the agent's logs, Kafka's log segments (records are not
        // compressed), the agent's journal.
        List<Path> files;
        try (Stream<Path> all = Stream.concat(Files.walk(work), Files.walk(platform.agentHomes))) {
            files = all.filter(Files::isRegularFile).toList();
        }
        assertThat(files).contains(agentLog, platform.ingest.log(), work.resolve("query.log"));
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        for (Path f : files) {
            assertThat(indexOf(Files.readAllBytes(f), needle)).as(f.toString()).isEqualTo(-1);
        }
    }

    private static Map<String, QueryProcess.Page> fetch(List<String> paths) {
        Map<String, QueryProcess.Page> out = new LinkedHashMap<>();
        paths.forEach(p -> out.put(p, query.get(p)));
        return out;
    }

    private static List<JsonNode> jobs(String campaignId) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(platform.admin.get("/admin/campaigns/" + campaignId).body())
                .get("jobs")
                .forEach(out::add);
        return out;
    }

    /** The campaign's two points (ok, fail) of {@link #WORKLOAD}, with HF_TOKEN as its secret. */
    private static String campaign(String benchmark, String pool, Path seen, String secret) throws IOException {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("benchmark", benchmark);
        spec.put("adapter", "command");
        spec.put("parser", "jsonl");
        spec.put("command", List.of("bash", "-c", WORKLOAD, "podium-secret", "{seen}", "{outcome}"));
        spec.put("parameters", Map.of("seen", seen.toString()));
        spec.put("matrix", Map.of("outcome", List.of("ok", "fail")));
        spec.put("repetitions", 1);
        spec.put("warmup_steps", 0);
        spec.put("timeout_seconds", 120);
        spec.put("environment", Map.of());
        spec.put("nodes", 1);
        spec.put("devices_per_node", 1);
        return JSON.writeValueAsString(Map.of(
                "name",
                "secret campaign",
                "pools",
                List.of(pool),
                "spec",
                spec,
                "secrets",
                Map.of("HF_TOKEN", secret)));
    }

    /** Every table and view of the platform's schemas, schema-qualified and quoted. */
    private static List<String> relations(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
                WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
