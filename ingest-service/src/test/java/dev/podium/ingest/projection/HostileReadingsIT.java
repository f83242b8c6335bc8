package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import dev.podium.ingest.testing.ThrottledRuns;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Accelerator readings no device can give, in records correctly signed by an enrolled agent: each is refused or fails
 * the run with a reason that names the figure and its range, and nothing else is lost. A sample batch out of range (a
 * temperature of 10,000 °C, a clock above any device, a gigawatt power limit, a throttle word with a bit no reason
 * uses) is refused whole while the run's other batches, its completion and other runs stand; a RunStarted whose devices
 * say a negative power limit or a clock beyond any device, or throttle samples placed in the measured window after the
 * run ended, are stored and fail not_throttled with what lied, so the run is kept but not counted.
 */
@QuarkusTest
class HostileReadingsIT {

    @Inject
    AgroalDataSource dataSource;

    private static final AcceleratorDevice H100 = new AcceleratorDevice(0, "GPU-h0", 700.0, 700.0, 1980.0, 2619.0);

    @Test
    void samplesOutOfRangeAreRefusedWithTheFigureAndTheRunsOtherRecordsStand() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hostile-readings");
        ComparisonKey key = SampleEvents.referenceKey(6_000_000 + new Random().nextInt(1_000_000));
        UUID control = UUID.randomUUID();
        agent.sendAndWait(db, ThrottledRuns.run(control, agent.agentId(), key, 700, ThrottleReason.SW_POWER_CAP));

        UUID run = UUID.randomUUID();
        String id = agent.agentId();
        Envelope hot = sampled(run, id, 2, SeriesKind.TEMPERATURE, "C", 65, 10_000);
        Envelope fast = sampled(run, id, 3, SeriesKind.SM_CLOCK, "MHz", 1980, 90_000);
        Envelope gigawatt = sampled(run, id, 4, SeriesKind.POWER_LIMIT, "W", 700, 1e9);
        Envelope unknownBit = sampled(
                run, id, 5, SeriesKind.THROTTLE_REASONS, "reasons", 0, ThrottleReason.HW_SLOWDOWN.bit() | 0x1000);
        Envelope warm = sampled(run, id, 6, SeriesKind.TEMPERATURE, "C", 65, 66);
        Envelope clean =
                sampled(run, id, 7, SeriesKind.THROTTLE_REASONS, "reasons", 0, ThrottleReason.SW_POWER_CAP.bit());
        Kafka.send(List.of(
                        ThrottledRuns.started(run, id, key, List.of(H100)),
                        hot,
                        fast,
                        gigawatt,
                        unknownBit,
                        warm,
                        clean,
                        completed(run, id, 8))
                .stream()
                .map(agent::signed)
                .toList());

        assertThat(reason(db, hot))
                .isEqualTo(
                        "invalid: payload.samples[1].value: 10000 is not a possible TEMPERATURE reading (above 200 °C)");
        assertThat(reason(db, fast))
                .isEqualTo(
                        "invalid: payload.samples[1].value: 90000 is not a possible SM_CLOCK reading (above 20000 MHz)");
        assertThat(reason(db, gigawatt))
                .isEqualTo("invalid: payload.samples[1].value: 1000000000 is not a possible POWER_LIMIT reading"
                        + " (above 5000 W)");
        assertThat(reason(db, unknownBit))
                .isEqualTo("invalid: payload.samples[1].value: 4104 is not a possible THROTTLE_REASONS reading (bits"
                        + " 0x1000 are no throttle reason of the contract)");
        awaitCompleted(db, run);
        assertThat(db.count(
                        "SELECT count(*) FROM event_store WHERE stream_id = ?",
                        StreamId.run(run).value()))
                .isEqualTo(4);
        assertThat(check(db, run))
                .containsExactly(
                        true,
                        "no slowdown in 2 throttle-reason samples; software power cap in 1 (normal at full load);"
                                + " power limits at their defaults");
        assertThat(db.rows("SELECT valid FROM proj_run WHERE run_id IN (?, ?)", run, control))
                .extracting(r -> r.get(0))
                .containsExactly(true, true);
    }

    @Test
    void devicesBeyondAnyDeviceAndReasonsAfterTheRunEndedFailNotThrottledAndTheRunIsKept() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("lying-devices");
        ComparisonKey key = SampleEvents.referenceKey(7_000_000 + new Random().nextInt(1_000_000));
        String id = agent.agentId();
        UUID lying = UUID.randomUUID();
        UUID late = UUID.randomUUID();
        agent.sendAndWait(
                db,
                List.of(
                        ThrottledRuns.started(
                                lying,
                                id,
                                key,
                                List.of(new AcceleratorDevice(0, "GPU-l0", -5.0, 700.0, 90_000.0, 2619.0))),
                        sampled(lying, id, 2, SeriesKind.THROTTLE_REASONS, "reasons", 0, 0),
                        completed(lying, id, 3),
                        ThrottledRuns.started(late, id, key, List.of(H100)),
                        SampleEvents.metricSampled(
                                late,
                                id,
                                2,
                                SeriesKind.THROTTLE_REASONS,
                                "reasons",
                                List.of(
                                        new Sample(1, 0, 0, 0),
                                        new Sample(900, ThrottleReason.HW_THERMAL_SLOWDOWN.bit(), 0, 0))),
                        completed(late, id, 3)));

        awaitCompleted(db, lying);
        awaitCompleted(db, late);
        assertThat(check(db, lying))
                .containsExactly(
                        false,
                        "device 0 (GPU-l0) reported power limit -5 W (not within 0 to 5000 W); device 0 (GPU-l0)"
                                + " reported highest SM clock 90000 MHz (not within 0 to 20000 MHz)");
        assertThat(check(db, late))
                .containsExactly(
                        false,
                        "hardware thermal slowdown on device 0 (GPU-h0) reported in the measured window at 900.0 s,"
                                + " after the run ended at 127.5 s; hardware thermal slowdown on device 0 (GPU-h0) in"
                                + " 1 sample from 900.0 s to 900.0 s");
        assertThat(db.rows("SELECT valid FROM proj_run WHERE run_id IN (?, ?)", lying, late))
                .extracting(r -> r.get(0))
                .containsExactly(false, false);
    }

    /** Samples of one device in the measured window at t = 1 and 2 s. */
    private static Envelope sampled(
            UUID run, String agentId, long seq, SeriesKind kind, String unit, double first, double second) {
        return SampleEvents.metricSampled(
                run, agentId, seq, kind, unit, List.of(new Sample(1, first, 0, 0), new Sample(2, second, 0, 0)));
    }

    /** A RunCompleted of three repetitions of 42.5 s. */
    private static Envelope completed(UUID run, String agentId, long seq) {
        RunCompleted c = (RunCompleted) SampleEvents.runCompleted(run, agentId, seq, List.of(100.0, 101.0, 99.0))
                .payload();
        return SampleEvents.envelope(StreamId.run(run), seq, agentId, Instant.now(), c);
    }

    private static void awaitCompleted(Db db, UUID run) {
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", run) == 1);
    }

    private static String reason(Db db, Envelope refused) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count(
                                "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                refused.eventId().toString())
                        == 1);
        return (String) db.one(
                "SELECT reason FROM rejected_event WHERE event_id = ?",
                refused.eventId().toString());
    }

    private static List<Object> check(Db db, UUID run) {
        return db.rows("""
                        SELECT (c->>'passed')::boolean, c->>'detail' FROM proj_run r,
                            jsonb_array_elements(r.validity) c WHERE r.run_id = ? AND c->>'name' = 'not_throttled'""", run).get(0);
    }
}
