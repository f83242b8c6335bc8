package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.RunProgress;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.StoredEvent;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Every run event gets a row of bounded size in proj_run_event, in the transaction that stores it, however large its
 * payload: what a run page lists instead of the payloads.
 */
@QuarkusTest
class RunEventProjectionIT {

    /** Large MetricSampled events: 10,000 samples each, about half a MiB of JSON. */
    private static final int SAMPLED_EVENTS = 12;

    private static final int SAMPLES = 10_000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EventStore store;

    @Inject
    Projections projections;

    @Test
    void aRunOfManyLargeEventsGetsOneShortSummaryAnEventAndItsCount() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("summaries");
        UUID run = UUID.randomUUID();
        List<Envelope> events = new ArrayList<>();
        events.add(SampleEvents.runStarted(
                run, agent.agentId(), "intel-gaudi2", SampleEvents.referenceKey(2), SampleEvents.AT));
        for (int i = 0; i < SAMPLED_EVENTS; i++) {
            events.add(power(run, agent, 2 + i, i * 2500.0));
        }
        // Signed by its own agent and well formed, but a message of 15,599 characters over 1,200 lines.
        String message = String.join("\n", Collections.nCopies(1200, "Traceback..."));
        events.add(SampleEvents.envelope(
                StreamId.run(run),
                2 + SAMPLED_EVENTS,
                agent.agentId(),
                SampleEvents.AT,
                new RunProgress(run, 0, 1, 2, "measure", message)));
        events.add(SampleEvents.runCompleted(run, agent.agentId(), 3 + SAMPLED_EVENTS, List.of(30.0, 31.0, 32.0)));
        agent.sendAndWait(db, events);

        assertThat(db.one("SELECT events FROM proj_run_event_count WHERE run_id = ?", run))
                .isEqualTo((long) events.size());
        assertThat(db.rows(
                        "SELECT max(char_length(summary)) <= ?, count(*) FROM proj_run_event WHERE run_id = ?",
                        EventSummary.MAX,
                        run))
                .containsExactly(List.of(true, (long) events.size()));
        assertThat(db.one("SELECT summary FROM proj_run_event WHERE run_id = ? AND seq = 3", run))
                .isEqualTo("POWER in W: 10000 samples, t 2500.0-4999.75 s, values 400.0-599.0");
        assertThat((String) db.one(
                        "SELECT summary FROM proj_run_event WHERE run_id = ? AND seq = ?", run, 2L + SAMPLED_EVENTS))
                .hasSize(EventSummary.MAX)
                .startsWith("{\"message\":\"Traceback...\\nTraceback...")
                .endsWith("…");
        // The envelope's columns are the event store's own.
        assertThat(db.count("""
                SELECT count(*) FROM proj_run_event r JOIN event_store e ON e.position = r.position
                WHERE r.run_id = ? AND e.stream_id = 'run/' || r.run_id AND e.seq = r.seq AND e.type = r.type
                  AND e.schema_version = r.schema_version AND e.writer = r.writer AND e.occurred_at = r.occurred_at
                  AND e.recorded_at = r.recorded_at""", run)).isEqualTo(events.size());

        assertThat(countAfterApplyingAgain(run)).isEqualTo(events.size());
    }

    /** The run's count after its stored events are applied once more, in a transaction rolled back. */
    private long countAfterApplyingAgain(UUID run) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                long first = new Db(dataSource)
                        .count("SELECT min(position) FROM event_store WHERE stream_id = ?", "run/" + run);
                List<StoredEvent> again = store.readAfter(c, first - 1, 100).stream()
                        .filter(e -> e.envelope().streamId().equals("run/" + run))
                        .toList();
                projections.apply(c, again);
                try (var s = c.prepareStatement("SELECT events FROM proj_run_event_count WHERE run_id = ?")) {
                    s.setObject(1, run);
                    try (var rs = s.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }
            } finally {
                c.rollback();
            }
        }
    }

    private static Envelope power(UUID run, TestAgent agent, long seq, double from) {
        List<Sample> samples = IntStream.range(0, SAMPLES)
                .mapToObj(i -> new Sample(from + i * 0.25, 400 + i % 200, 0, i % 8))
                .toList();
        return SampleEvents.metricSampled(run, agent.agentId(), seq, SeriesKind.POWER, "W", samples);
    }
}
