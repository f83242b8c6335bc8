package dev.podium.ingest.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.dlq.Redriver;
import dev.podium.ingest.dlq.RejectedRetention;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A lying enrolled agent cannot make one run or its own catalogue grow without bound: records past a run's budget, and
 * run starts past the agent's quota of new devices (with the rest of their run), are held, kept whole and flagged, spared
 * by retention, refused again with the same reason when redriven under the same bounds, while the agent's records within
 * its bounds, and other agents', are stored.
 */
@QuarkusTest
class BudgetsIT {

    /** The test profile's samples per series (podium.ingest.budget.run-samples-per-series). */
    private static final int SAMPLES = 200_000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Redriver redriver;

    @Inject
    RejectedRetention retention;

    @Test
    void recordsPastARunsBudgetAreHeldWholeAndTheRunGoesOn() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("budget");
        UUID run = UUID.randomUUID();
        ComparisonKey key = SampleEvents.referenceKey(4_000_000 + new Random().nextInt(1_000_000));
        List<Envelope> events = new ArrayList<>();
        events.add(SampleEvents.runStarted(run, agent.agentId(), "nvidia-h100-sxm", key, Instant.now()));
        int full = SAMPLES / 10_000;
        for (int e = 0; e < full; e++) {
            events.add(power(run, agent, 2 + e, 10_000));
        }
        Envelope over = power(run, agent, 2 + full, 1);
        Envelope farSeq = SampleEvents.runProgress(run, agent.agentId(), 100_001, 1, 1, 2);
        events.add(over);
        events.add(farSeq);
        Envelope completed = SampleEvents.runCompleted(run, agent.agentId(), 3 + full, List.of(99.0, 100.0, 101.0));
        events.add(completed);
        Kafka.send(events.stream().map(agent::signed).toList());

        await().atMost(Duration.ofSeconds(120))
                .until(() ->
                        db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", run) == 1);
        assertThat(db.rows("SELECT samples FROM proj_run_series_head WHERE run_id = ?", run))
                .containsExactly(List.of((long) SAMPLES));
        List<List<Object>> held = db.rows("""
                SELECT event_id, reason, held, octet_length(record) = record_bytes FROM rejected_event
                WHERE stream_id = ? ORDER BY id""", StreamId.run(run).value());
        assertThat(held).hasSize(2);
        assertThat(held.get(0).get(0)).isEqualTo(over.eventId().toString());
        assertThat((String) held.get(0).get(1))
                .startsWith("over the run's budget: POWER would hold " + (SAMPLES + 1) + " samples of " + SAMPLES);
        assertThat((String) held.get(1).get(1))
                .startsWith("over the run's budget: event 100001 of a run allowed 100000");
        assertThat(held).allSatisfy(h -> assertThat(h.subList(2, 4)).containsExactly(true, true));

        retention.prune(Duration.ZERO, 0, Long.MAX_VALUE);
        assertThat(db.count(
                        "SELECT count(*) FROM rejected_event WHERE stream_id = ?",
                        StreamId.run(run).value()))
                .isEqualTo(2);
        long id = (Long) db.rows(
                        "SELECT id FROM rejected_event WHERE event_id = ?",
                        over.eventId().toString())
                .get(0)
                .get(0);
        assertThat(redriver.redrive(id).outcome()).isEqualTo(Redriver.Outcome.REJECTED);
    }

    @Test
    void aRunNamingMoreNewDevicesThanTheQuotaIsHeldWholeAndOtherRunsAreStored() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("crowding");
        ComparisonKey key = SampleEvents.referenceKey(5_000_000 + new Random().nextInt(1_000_000));
        String prefix = "invented-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        UUID crowded = UUID.randomUUID();
        UUID fits = UUID.randomUUID();
        UUID real = UUID.randomUUID();
        // One run at a time: runs travel on partitions of their own, and the quota counts in the order ingest reads.
        Kafka.send(List.of(
                agent.signed(runStarted(crowded, agent, key, devices(prefix + "a", 17))),
                agent.signed(SampleEvents.runCompleted(crowded, agent.agentId(), 2, List.of(1.0, 1.0, 1.0)))));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == 2);
        agent.sendAndWait(
                db,
                List.of(
                        runStarted(fits, agent, key, devices(prefix + "b", 16)),
                        SampleEvents.runCompleted(fits, agent.agentId(), 2, List.of(1.0, 1.0, 1.0))));
        // Its 16 new devices are spent: one more new device is held, a known one is not.
        UUID oneMore = UUID.randomUUID();
        Kafka.send(List.of(agent.signed(runStarted(oneMore, agent, key, devices(prefix + "c", 1)))));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == 3);
        agent.sendAndWait(
                db,
                SampleEvents.completedRun(
                        real, agent.agentId(), prefix + "b0", key, Instant.now(), List.of(99.0, 100.0, 101.0)));
        assertThat(db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", real))
                .isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", fits))
                .isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM event_store WHERE stream_id = ANY(?)", (Object) new String[] {
                    StreamId.run(crowded).value(), StreamId.run(oneMore).value()
                }))
                .isZero();
        assertThat(db.count("SELECT count(*) FROM proj_device WHERE device_id LIKE ?", prefix + "%"))
                .isEqualTo(16);
        List<List<Object>> held = db.rows("""
                SELECT stream_id, reason FROM rejected_event WHERE held AND key_id = ? ORDER BY id""", agent.keyId());
        assertThat(held)
                .extracting(h -> h.get(0))
                .containsExactly(
                        StreamId.run(crowded).value(),
                        StreamId.run(crowded).value(),
                        StreamId.run(oneMore).value());
        assertThat((String) held.get(0).get(1))
                .startsWith(
                        "over quota: agent '" + agent.agentId() + "' would have named 17 new devices of 16 allowed");
        assertThat((String) held.get(1).get(1)).startsWith("over quota: held with its run's start");
        assertThat((String) held.get(2).get(1))
                .startsWith(
                        "over quota: agent '" + agent.agentId() + "' would have named 17 new devices of 16 allowed");
    }

    private static Envelope power(UUID run, TestAgent agent, long seq, int samples) {
        List<Sample> list = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            list.add(new Sample(i, 300, 0, 0));
        }
        return SampleEvents.metricSampled(run, agent.agentId(), seq, SeriesKind.POWER, "W", list);
    }

    private static List<Accelerator> devices(String prefix, int n) {
        List<Accelerator> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(SampleEvents.accelerator(prefix + i, 1));
        }
        return out;
    }

    private static Envelope runStarted(UUID run, TestAgent agent, ComparisonKey key, List<Accelerator> accelerators) {
        return SampleEvents.envelope(
                StreamId.run(run),
                1,
                agent.agentId(),
                Instant.now(),
                new RunStarted(
                        run,
                        null,
                        null,
                        SampleEvents.host(agent.agentId()),
                        accelerators,
                        SampleEvents.software(),
                        SampleEvents.workload(key),
                        key,
                        3,
                        10,
                        SampleEvents.provenance(agent.agentId()),
                        null));
    }
}
