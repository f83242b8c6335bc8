package dev.podium.reliability.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.fault.Credentials;
import dev.podium.reliability.fault.Platform;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.QueryProcess;
import dev.podium.reliability.process.WorkDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two query-service replicas on one database, beside one ingest-service, all as packaged applications: an event
 * ingested once is on both replicas' pages, since each page reads the database and no replica keeps its own state.
 */
class ReplicaIT {

    @Test
    void twoQueryServiceReplicasBothShowARunIngestedOnce() {
        Path work = Path.of(System.getProperty("podium.reliability.work", "target/reliability"))
                .resolve("replica");
        WorkDirs.fresh(work);
        Path ingestJar = Path.of(
                System.getProperty("podium.ingest.app", "../ingest-service/target/quarkus-app/quarkus-run.jar"));
        Path queryJar =
                Path.of(System.getProperty("podium.query.app", "../query-service/target/quarkus-app/quarkus-run.jar"));
        int ports = Ports.freeRun(2);
        try (Platform platform = Platform.start(work, ingestJar);
                QueryProcess a = new QueryProcess("query-a", queryJar, work, ports, platform.postgres.jdbcUrl());
                QueryProcess b = new QueryProcess("query-b", queryJar, work, ports + 1, platform.postgres.jdbcUrl())) {
            a.start();
            b.start();
            UUID run = UUID.randomUUID();
            assertThat(a.get("/runs/" + run).status()).isEqualTo(404);
            assertThat(b.get("/runs/" + run).status()).isEqualTo(404);

            Credentials key = platform.admin.issue("replica-agent");
            platform.produce(SampleEvents.completedRun(
                            run,
                            key.agentId(),
                            SampleEvents.DEVICE_ID,
                            SampleEvents.referenceKey(1),
                            Instant.now(),
                            List.of(610.0, 611.0, 612.0))
                    .stream()
                    .map(key::signed)
                    .toList());

            for (QueryProcess replica : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> replica.get("/api/v1/runs/" + run).status() == 200);
                assertThat(replica.get("/api/v1/runs/" + run).body())
                        .contains(run.toString())
                        .contains("completed");
                assertThat(replica.get("/runs/" + run).body())
                        .contains(run.toString())
                        .contains("611");
            }
        }
    }
}
