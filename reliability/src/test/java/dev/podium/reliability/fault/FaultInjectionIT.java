package dev.podium.reliability.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.reliability.hostile.HostileCase;
import dev.podium.reliability.process.WorkDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The fault-injection suite on real processes: a Kafka broker, a private PostgreSQL and ingest-service each in a process
 * of its own, the agent's publisher in a JVM the suite kills. Every case must end with accepted = unique valid events,
 * rejected = invalid or conflicting records, lost = 0 and duplicated = 0. {@code -Dpodium.reliability.events} sets the
 * events per case (5,000 in {@code mvn verify}; {@code ./podium reliability full} runs 50,000). The hostile-volume cases
 * add their bounds (a control run's time against its quiet time, a page's p99 against its p99 before, what a refusal
 * keeps) to that accounting, and the two that read pages share one query-service.
 */
class FaultInjectionIT {

    @Test
    void everyFaultEndsWithExactAccounting() {
        int n = Integer.getInteger("podium.reliability.events", 5000);
        String tier = System.getProperty("podium.reliability.tier", "ci");
        Path work = Path.of(System.getProperty("podium.reliability.work", "target/reliability"));
        Path ingestJar = Path.of(
                System.getProperty("podium.ingest.app", "../ingest-service/target/quarkus-app/quarkus-run.jar"));
        Path queryJar =
                Path.of(System.getProperty("podium.query.app", "../query-service/target/quarkus-app/quarkus-run.jar"));
        WorkDirs.fresh(work);
        long t0 = System.nanoTime();
        List<CaseResult> results = new ArrayList<>();
        Map<String, HostileCase.KindResult> kinds = new LinkedHashMap<>();
        Map<String, String> volume = new LinkedHashMap<>();
        try (Platform platform = Platform.start(work, ingestJar);
                QueryOnDemand query = new QueryOnDemand(queryJar, work, platform.postgres.jdbcUrl())) {
            // Also when the build is interrupted: no broker, database or service outlives the suite.
            Thread cleanup = new Thread(
                    () -> {
                        query.close();
                        platform.close();
                    },
                    "reliability-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            Map<String, Supplier<CaseResult>> all = cases(platform, query, n, tier, kinds, volume);
            String only = System.getProperty("podium.reliability.cases", "");
            all.keySet()
                    .removeIf(
                            name -> !only.isBlank() && !List.of(only.split(",")).contains(name));
            all.forEach((name, c) -> results.add(run(name, c)));
            Runtime.getRuntime().removeShutdownHook(cleanup);
            Map<String, Long> byKey = platform.recordsByKeyId();
            for (int i = 0; i < results.size(); i++) {
                CaseResult r = results.get(i);
                if (r.records() == 0 && r.keyId() != null) {
                    results.set(i, r.withRecords(byKey.getOrDefault(r.keyId(), 0L)));
                }
            }
        }
        String report = Report.render(tier, n, results, kinds.values(), volume, (System.nanoTime() - t0) / 1e9);
        Report.write(work.resolve("report-" + tier + ".md"), report);
        System.out.println(report);
        assertThat(results)
                .allSatisfy(r ->
                        assertThat(r.exact()).as(r.name() + ": " + r.problems()).isTrue());
        assertThat(kinds.values())
                .allSatisfy(
                        k -> assertThat(k.lost() + k.wrongReason()).as(k.kind()).isZero());
    }

    /** Every case by its name, in the order they run. */
    private static Map<String, Supplier<CaseResult>> cases(
            Platform platform,
            QueryOnDemand query,
            int n,
            String tier,
            Map<String, HostileCase.KindResult> kinds,
            Map<String, String> volume) {
        FaultCases cases = new FaultCases(platform, n);
        Map<String, Supplier<CaseResult>> all = new LinkedHashMap<>();
        all.put("agent-sigkill", cases::agentKilled);
        all.put("ingest-sigkill", cases::ingestKilled);
        all.put("two-ingest", cases::twoInstances);
        all.put("postgres-restart", cases::postgresRestarted);
        all.put("kafka-restart", cases::kafkaRestarted);
        all.put("duplicates-reordered", cases::duplicatesReordered);
        all.put("conflict", cases::conflicts);
        all.put("hostile", () -> new HostileCase(platform, cases).run(kinds));
        all.put("key-rotation", cases::keyRotation);
        all.put("decompression-bomb", () -> new DecompressionBombCase(platform, cases, tier).run());
        all.put("unverified-flood", () -> new UnverifiedFloodCase(platform, cases, tier).run(volume));
        all.put("sample-trickle", () -> new SampleTrickleCase(platform, cases, tier).run(volume));
        all.put("planted-run-page", () -> new PlantedRunPageCase(platform, cases, query, tier).run(volume));
        // last: the lists it crowds are the database's for the rest of the suite
        all.put("catalog-crowding", () -> new CatalogCrowdingCase(platform, cases, query, tier).run(volume));
        return all;
    }

    /** One case; a case that throws is a result that did not finish. */
    private static CaseResult run(String name, Supplier<CaseResult> c) {
        System.out.println("[reliability] case " + name);
        CaseResult r;
        try {
            r = c.get();
        } catch (RuntimeException e) {
            r = new CaseResult(name, "(did not finish)", null, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(e.toString()));
        }
        System.out.println("[reliability] " + r);
        return r;
    }
}
