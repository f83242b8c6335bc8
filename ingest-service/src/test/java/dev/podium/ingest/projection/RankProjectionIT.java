package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.StoredEvent;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Retractions;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What public lists rank by: per benchmark, key, device and metric, the counted runs of each agent. A run counts once, whatever
 * is applied again or sent again, only while it is completed, valid and not retracted, and the counts kept batch by
 * batch equal those computed from every run.
 */
@QuarkusTest
class RankProjectionIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Inject
    Projections projections;

    @Inject
    EventStore store;

    @Test
    void aCountedRunCountsOncePerAgentUntilItIsRetracted() throws Exception {
        Db db = new Db(dataSource);
        TestAgent one = TestAgent.register("rank-one");
        TestAgent two = TestAgent.register("rank-two");
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String benchmark = "rank-" + suffix;
        ComparisonKey key = key(benchmark, "0");
        ComparisonKey other = key(benchmark, "2");
        String deviceA = "rank-device-a-" + suffix;
        String deviceB = "rank-device-b-" + suffix;
        UUID oneOnA = UUID.randomUUID();
        UUID oneOnB = UUID.randomUUID();
        UUID twoOnA = UUID.randomUUID();
        UUID twoOther = UUID.randomUUID();
        List<Envelope> byOne = new ArrayList<>();
        byOne.addAll(completed(oneOnA, one, deviceA, key, List.of(100.0, 101.0, 102.0)));
        byOne.addAll(completed(oneOnB, one, deviceB, key, List.of(200.0, 201.0, 202.0)));
        // Neither a failed run nor one that failed a validity check (two repetitions of the three wanted) counts.
        UUID failed = UUID.randomUUID();
        byOne.add(SampleEvents.runStarted(failed, one.agentId(), deviceA, key, Instant.now()));
        byOne.add(SampleEvents.runFailed(failed, one.agentId(), 2, "measure", "out of memory"));
        byOne.addAll(completed(UUID.randomUUID(), one, deviceB, key, List.of(300.0, 301.0)));
        one.sendAndWait(db, byOne);
        List<Envelope> byTwo = new ArrayList<>();
        byTwo.addAll(completed(twoOnA, two, deviceA, key, List.of(110.0, 111.0, 112.0)));
        byTwo.addAll(completed(twoOther, two, deviceA, other, List.of(120.0, 121.0, 122.0)));
        two.sendAndWait(db, byTwo);

        assertThat(benchmarkRows(db, benchmark)).containsExactlyInAnyOrder(row(one, 2), row(two, 2));
        assertThat(keyRows(db, benchmark))
                .containsExactlyInAnyOrder(
                        List.of(key.id(), one.agentId(), 2L),
                        List.of(key.id(), two.agentId(), 1L),
                        List.of(other.id(), two.agentId(), 1L));
        assertThat(deviceRows(db, deviceA)).containsExactlyInAnyOrder(row(one, 1), row(two, 2));
        assertThat(deviceRows(db, deviceB)).containsExactlyInAnyOrder(row(one, 1));
        assertThat(totals(db, "proj_rank_benchmark", "benchmark", benchmark)).containsExactly(List.of(2, 4L));
        assertThat(totals(db, "proj_rank_key", "key_id", key.id())).containsExactly(List.of(2, 3L));
        assertThat(totals(db, "proj_rank_key", "key_id", other.id())).containsExactly(List.of(1, 1L));
        assertThat(totals(db, "proj_rank_device", "device_id", deviceA)).containsExactly(List.of(2, 3L));
        assertThat(totals(db, "proj_rank_device", "device_id", deviceB)).containsExactly(List.of(1, 1L));
        assertThat(metricRows(db, benchmark)).containsExactlyInAnyOrder(row(one, 2), row(two, 2));
        assertThat(totals(db, "proj_rank_metric", "benchmark", benchmark)).containsExactly(List.of(2, 4L));
        List<String> counted = dump(db, benchmark, deviceA, deviceB);

        // Every event of both agents applied again, twice over, as a redelivered batch would be: nothing changes.
        applyAgain(Set.of(one.agentId(), two.agentId()));
        assertThat(dump(db, benchmark, deviceA, deviceB)).containsExactlyElementsOf(counted);

        // A run's results sent again replace its figures; the run still counts once.
        one.sendAndWait(db, List.of(SampleEvents.runCompleted(oneOnA, one.agentId(), 4, List.of(105.0, 106.0, 104.0))));
        assertThat(dump(db, benchmark, deviceA, deviceB)).containsExactlyElementsOf(counted);

        Retractions.retract(dataSource, appender, twoOnA);
        assertThat(benchmarkRows(db, benchmark)).containsExactlyInAnyOrder(row(one, 2), row(two, 1));
        assertThat(keyRows(db, benchmark))
                .containsExactlyInAnyOrder(
                        List.of(key.id(), one.agentId(), 2L), List.of(other.id(), two.agentId(), 1L));
        assertThat(deviceRows(db, deviceA)).containsExactlyInAnyOrder(row(one, 1), row(two, 1));
        assertThat(totals(db, "proj_rank_benchmark", "benchmark", benchmark)).containsExactly(List.of(2, 3L));
        assertThat(totals(db, "proj_rank_device", "device_id", deviceA)).containsExactly(List.of(2, 2L));
        assertThat(totals(db, "proj_rank_metric", "benchmark", benchmark)).containsExactly(List.of(2, 3L));

        Retractions.retract(dataSource, appender, twoOther);
        Retractions.retract(dataSource, appender, oneOnB);
        assertThat(benchmarkRows(db, benchmark))
                .as("an agent whose runs all stopped counting has no row left")
                .containsExactly(row(one, 1));
        assertThat(keyRows(db, benchmark)).containsExactly(List.of(key.id(), one.agentId(), 1L));
        assertThat(deviceRows(db, deviceA)).containsExactly(row(one, 1));
        assertThat(deviceRows(db, deviceB)).isEmpty();
        assertThat(totals(db, "proj_rank_benchmark", "benchmark", benchmark)).containsExactly(List.of(1, 1L));
        assertThat(totals(db, "proj_rank_key", "key_id", other.id())).isEmpty();
        assertThat(totals(db, "proj_rank_device", "device_id", deviceB)).isEmpty();
        assertThat(metricRows(db, benchmark)).containsExactly(row(one, 1));
        assertThat(totals(db, "proj_rank_metric", "benchmark", benchmark)).containsExactly(List.of(1, 1L));
        assertThat(db.count("SELECT count(*) FROM proj_rank_run WHERE benchmark = ?", benchmark))
                .isOne();

        assertThat(dump(db, benchmark, deviceA, deviceB))
                .as("the rows kept batch by batch equal those computed from every run")
                .containsExactlyElementsOf(recomputed(benchmark, deviceA, deviceB));
    }

    private static ComparisonKey key(String benchmark, String workers) {
        return new ComparisonKey(
                benchmark,
                "1",
                "training",
                "tiny-transformer-classifier",
                "fp32",
                32,
                1,
                128,
                new TreeMap<>(Map.of("dataloader_num_workers", workers)));
    }

    private static List<Envelope> completed(
            UUID run, TestAgent agent, String device, ComparisonKey key, List<Double> values) {
        return SampleEvents.completedRun(run, agent.agentId(), device, key, Instant.now(), values);
    }

    private static List<Object> row(TestAgent agent, long runs) {
        return List.of(agent.agentId(), runs);
    }

    private static List<List<Object>> benchmarkRows(Db db, String benchmark) {
        return db.rows(
                "SELECT agent_id, counted_runs FROM proj_rank_benchmark_agent WHERE benchmark = ? ORDER BY agent_id",
                benchmark);
    }

    private static List<List<Object>> keyRows(Db db, String benchmark) {
        return db.rows(
                "SELECT key_id, agent_id, counted_runs FROM proj_rank_key_agent WHERE benchmark = ? ORDER BY key_id, agent_id",
                benchmark);
    }

    private static List<List<Object>> deviceRows(Db db, String device) {
        return db.rows(
                "SELECT agent_id, counted_runs FROM proj_rank_device_agent WHERE device_id = ? ORDER BY agent_id",
                device);
    }

    /** The counted runs of each agent under the benchmark's one metric, the throughput. */
    private static List<List<Object>> metricRows(Db db, String benchmark) {
        return db.rows(
                "SELECT agent_id, counted_runs FROM proj_rank_metric_agent WHERE benchmark = ? AND metric = ? "
                        + "ORDER BY agent_id",
                benchmark,
                SampleEvents.THROUGHPUT_METRIC);
    }

    /** An entry's agents and counted runs, as lists read them. */
    private static List<List<Object>> totals(Db db, String table, String column, String name) {
        return db.rows("SELECT agents, counted_runs FROM " + table + " WHERE " + column + " = ?", name);
    }

    /** The agents' stored events applied again in one transaction, twice, as ingest applies a batch. */
    private void applyAgain(Set<String> agents) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            long first;
            try (var ps = c.prepareStatement("SELECT min(position) - 1 FROM event_store WHERE writer = ANY(?)")) {
                ps.setArray(1, c.createArrayOf("text", agents.toArray()));
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    first = rs.getLong(1);
                }
            }
            List<StoredEvent> theirs = store.readAfter(c, first, 10_000).stream()
                    .filter(e -> agents.contains(e.envelope().agentId()))
                    .toList();
            assertThat(theirs).hasSizeGreaterThanOrEqualTo(10);
            Projections.lockShared(c);
            projections.apply(c, theirs);
            projections.apply(c, theirs);
            c.commit();
        }
    }

    /** Every rank row of the benchmark and devices, as text. */
    private List<String> dump(Db db, String benchmark, String... devices) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            return dump(c, benchmark, devices);
        }
    }

    /** The same rows computed from every run, in a transaction rolled back afterwards. */
    private List<String> recomputed(String benchmark, String... devices) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT podium_refresh_all_rank(), podium_refresh_all_rank_metrics()");
            }
            List<String> out = dump(c, benchmark, devices);
            c.rollback();
            return out;
        }
    }

    private static List<String> dump(Connection c, String benchmark, String... devices) throws Exception {
        List<String> out = new ArrayList<>();
        try (var ps = c.prepareStatement("""
                WITH asked AS (SELECT ?::text AS benchmark, ?::text[] AS devices)
                SELECT 'run ' || (p.*)::text FROM proj_rank_run p, asked WHERE p.benchmark = asked.benchmark
                UNION ALL SELECT 'benchmark agent ' || (b.*)::text FROM proj_rank_benchmark_agent b, asked
                          WHERE b.benchmark = asked.benchmark
                UNION ALL SELECT 'key agent ' || (k.*)::text FROM proj_rank_key_agent k, asked
                          WHERE k.benchmark = asked.benchmark
                UNION ALL SELECT 'device agent ' || (d.*)::text FROM proj_rank_device_agent d, asked
                          WHERE d.device_id = ANY(asked.devices)
                UNION ALL SELECT 'benchmark ' || (b.*)::text FROM proj_rank_benchmark b, asked
                          WHERE b.benchmark = asked.benchmark
                UNION ALL SELECT 'key ' || (k.*)::text FROM proj_rank_key k, asked WHERE k.benchmark = asked.benchmark
                UNION ALL SELECT 'device ' || (d.*)::text FROM proj_rank_device d, asked
                          WHERE d.device_id = ANY(asked.devices)
                UNION ALL SELECT 'metric run ' || (m.*)::text FROM proj_rank_metric_run m, asked
                          WHERE m.benchmark = asked.benchmark
                UNION ALL SELECT 'metric agent ' || (m.*)::text FROM proj_rank_metric_agent m, asked
                          WHERE m.benchmark = asked.benchmark
                UNION ALL SELECT 'metric ' || (m.*)::text FROM proj_rank_metric m, asked
                          WHERE m.benchmark = asked.benchmark
                ORDER BY 1""")) {
            ps.setString(1, benchmark);
            ps.setArray(2, c.createArrayOf("text", devices));
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
