package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Percentiles;
import dev.podium.events.model.Statistics;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.ValueChecks;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.StoredBefore;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The statistics on the pages are the server's own wherever raw values came with them. */
@QuarkusTest
class ServerStatisticsIT {

    @Inject
    AgroalDataSource dataSource;

    private Db db() {
        return new Db(dataSource);
    }

    @Test
    void aRunCompletedWhoseFiguresItsValuesDoNotGiveIsRejected() {
        TestAgent agent = TestAgent.register("figures");
        UUID run = UUID.randomUUID();
        Envelope started = SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(44), Instant.now());
        Envelope lie = lying(run, agent.agentId());
        Kafka.send(List.of(agent.signed(started), agent.signed(lie)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count(
                                        "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                        lie.eventId().toString())
                        == 1);
        assertThat(db().one(
                                "SELECT reason FROM rejected_event WHERE event_id = ?",
                                lie.eventId().toString()))
                .isEqualTo(
                        "invalid: payload.metrics[0].statistics.mean: 99999.0 is not what the 3 values give (601.0)");
        assertThat(db().count("SELECT count(*) FROM proj_result WHERE run_id = ?", run))
                .isZero();
    }

    @Test
    void aRebuildOverStoredLyingFiguresStoresTheServersOwn() throws Exception {
        TestAgent agent = TestAgent.register("figures-old");
        UUID run = UUID.randomUUID();
        Kafka.send(List.of(agent.signed(SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(45), Instant.now()))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count("SELECT count(*) FROM proj_run WHERE run_id = ?", run) == 1);
        StoredBefore.append(dataSource, lying(run, agent.agentId()), agent.agentId());

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);

        assertThat(db().rows("SELECT n, mean, statistics_source FROM proj_result WHERE run_id = ?", run))
                .containsExactly(List.of(3, 601.0, "server"));
    }

    @Test
    void figuresWithoutRawValuesAreKeptAsReportedAndMarkedSo() {
        TestAgent agent = TestAgent.register("percentiles");
        UUID run = UUID.randomUUID();
        Envelope started = SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(46), Instant.now());
        RunCompleted sample = (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 2, List.of(1.0, 2.0, 3.0))
                .payload();
        Metric m = sample.metrics().get(0);
        Metric reported = new Metric(
                m.name(),
                m.unit(),
                m.direction(),
                m.scope(),
                m.warmupExcluded(),
                null,
                new Statistics(1000, 12.0, 11.0, 3.0, 2.0, 90.0, 11.5, 12.5, 0.25));
        Envelope completed = SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agent.agentId(),
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(run, List.of(reported), sample.validity(), sample.durationSeconds()));
        Kafka.send(List.of(agent.signed(started), agent.signed(completed)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count("SELECT count(*) FROM proj_result WHERE run_id = ?", run) == 1);
        assertThat(db().rows("SELECT n, mean, statistics_source FROM proj_result WHERE run_id = ?", run))
                .containsExactly(List.of(1000, 12.0, "reported"));
    }

    @Test
    void aRunsPercentilesAndTheirIntervalsAreStoredBesideItsResult() {
        TestAgent agent = TestAgent.register("percentile-bounds");
        UUID run = UUID.randomUUID();
        Envelope started = SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(47), Instant.now());
        RunCompleted sample = (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 2, List.of(1.0, 2.0, 3.0))
                .payload();
        Metric m = sample.metrics().get(0);
        Percentiles p = Percentiles.of(
                IntStream.rangeClosed(1, 1000).mapToObj(i -> (double) i).toList());
        Metric withRequests = new Metric(
                m.name(), m.unit(), m.direction(), m.scope(), m.warmupExcluded(), m.values(), m.statistics(), p);
        Envelope completed = SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agent.agentId(),
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(run, List.of(withRequests), sample.validity(), sample.durationSeconds()));
        Kafka.send(List.of(agent.signed(started), agent.signed(completed)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count("SELECT count(*) FROM proj_result WHERE run_id = ?", run) == 1);
        // the ranks scipy gives for 1000 values (percentiles/order_statistics.csv): p50 469-532, p90 881-919, p99
        // 983-997
        assertThat(db().rows(
                                "SELECT requests, p50_low, p50_high, p90_low, p90_high, p99, p99_low, p99_high FROM proj_result"
                                        + " WHERE run_id = ?",
                                run))
                .containsExactly(List.of(1000, 469.0, 532.0, 881.0, 919.0, 990.01, 983.0, 997.0));
    }

    @Test
    void aPassingMinDurationTheRunsOwnDurationCannotHoldIsRejected() {
        TestAgent agent = TestAgent.register("duration");
        UUID run = UUID.randomUUID();
        RunCompleted honest =
                (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 2, List.of(600.0, 601.0, 602.0))
                        .payload();
        Metric m = honest.metrics().get(0);
        // Three repetitions of half a second each, reported as passing with a shortest repetition of 12 s.
        Envelope lie = SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agent.agentId(),
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(run, List.of(m), SampleEvents.valueChecks(m, 3, List.of(12.0, 12.0, 12.0)), 1.5));
        assertRejected(
                agent,
                run,
                lie,
                "invalid: payload.validity[3].passed: min_duration cannot pass: 3 repetitions"
                        + " of 12.00 s or more do not fit in the run's duration of 1.5 s");
    }

    @Test
    void aRunThatPassesEveryCheckItSendsButLeavesOutItsCvIsRejected() {
        TestAgent agent = TestAgent.register("no-cv");
        UUID run = UUID.randomUUID();
        RunCompleted noisy =
                (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 2, List.of(100.0, 600.0, 1200.0))
                        .payload();
        Envelope lie = SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agent.agentId(),
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(
                        run,
                        noisy.metrics(),
                        noisy.validity().stream()
                                .filter(c -> !c.name().equals(ValueChecks.CV))
                                .toList(),
                        noisy.durationSeconds()));
        assertRejected(
                agent,
                run,
                lie,
                "invalid: payload.validity: a run whose checks all pass must carry the checks"
                        + " the server re-evaluates; missing: cv_below_10pct");
    }

    @Test
    void aCountThatWouldOverflowTheLeaderboardsIsRejected() {
        TestAgent agent = TestAgent.register("count");
        UUID run = UUID.randomUUID();
        RunCompleted sample = (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 2, List.of(1.0, 1.0, 1.0))
                .payload();
        Metric m = sample.metrics().get(0);
        Metric reported = new Metric(
                m.name(),
                m.unit(),
                m.direction(),
                m.scope(),
                m.warmupExcluded(),
                null,
                new Statistics(Integer.MAX_VALUE, 12.0, 11.0, 3.0, 2.0, 90.0, 11.5, 12.5, 0.25));
        Envelope huge = SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agent.agentId(),
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(run, List.of(reported), sample.validity(), sample.durationSeconds()));
        assertRejected(
                agent,
                run,
                huge,
                "invalid: payload.metrics[0].statistics.n: 2147483647 is over the limit of "
                        + dev.podium.events.validate.ServerStatistics.MAX_COUNT);
    }

    /** Sends the run's RunStarted and {@code completed}, signed by {@code agent}: the latter is refused for {@code reason}. */
    private void assertRejected(TestAgent agent, UUID run, Envelope completed, String reason) {
        Envelope started = SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(47), Instant.now());
        Kafka.send(List.of(agent.signed(started), agent.signed(completed)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db().count(
                                        "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                        completed.eventId().toString())
                        == 1);
        assertThat(db().one(
                                "SELECT reason FROM rejected_event WHERE event_id = ?",
                                completed.eventId().toString()))
                .isEqualTo(reason);
        assertThat(db().rows("SELECT status FROM proj_run WHERE run_id = ?", run))
                .containsExactly(List.of("running"));
        assertThat(db().count("SELECT count(*) FROM proj_result WHERE run_id = ?", run))
                .isZero();
    }

    /** A RunCompleted (seq 2) whose raw values give a mean of 601 and whose statistics claim 99999. */
    private static Envelope lying(UUID run, String agentId) {
        RunCompleted honest = (RunCompleted) SampleEvents.runCompleted(run, agentId, 2, List.of(600.0, 601.0, 602.0))
                .payload();
        Metric m = honest.metrics().get(0);
        Statistics s = m.statistics();
        Metric lie = new Metric(
                m.name(),
                m.unit(),
                m.direction(),
                m.scope(),
                m.warmupExcluded(),
                m.values(),
                new Statistics(
                        s.n(), 99999.0, s.median(), s.stdev(), s.min(), s.max(), s.ci95Low(), s.ci95High(), s.cv()));
        return SampleEvents.envelope(
                dev.podium.events.StreamId.run(run),
                2,
                agentId,
                SampleEvents.AT.plusSeconds(120),
                new RunCompleted(run, List.of(lie), honest.validity(), honest.durationSeconds()));
    }
}
