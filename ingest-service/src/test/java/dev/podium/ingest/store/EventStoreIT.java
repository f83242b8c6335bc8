package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.testing.SampleEvents;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Each appended row holds its own event's payload, whatever characters the payload's JSON contains. */
@QuarkusTest
class EventStoreIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EventStore store;

    @Test
    void payloadsWithQuotesBackslashesAndAnyUnicodeAreStoredWithTheirOwnEvents() throws Exception {
        List<String> payloads = List.of(
                "{\"a\":\"b\\\\c \\\"q\\\" ,}{\",\"n\":[1,2.5,-0.0,1e300,{\"x\":null}]}",
                "{\"u\":\"\\u00fc \\u20ac \\ud834\\udd1e \u00fc \u20ac \ud834\udd1e\",\"ctl\":\"tab\\there\\nnewline\"}",
                "{}",
                "{\"nested\":{\"deeper\":{\"array\":[[],[{}],\"]\"]}}}");
        List<NewEvent> events = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            Envelope e = SampleEvents.agentRegistered(
                    "store-" + UUID.randomUUID(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
            events.add(new NewEvent(e, "store-agent", "k", payloads.get(i), "hash-" + i, "podium.events", 0, (long) i));
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            List<Appended> appended = store.append(c, events);
            assertThat(appended).allMatch(a -> a instanceof Appended.Inserted);
            for (int i = 0; i < events.size(); i++) {
                try (PreparedStatement ps =
                        c.prepareStatement("SELECT payload = ?::jsonb FROM event_store WHERE event_id = ?")) {
                    ps.setString(1, payloads.get(i));
                    ps.setObject(2, events.get(i).envelope().eventId());
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getBoolean(1)).as("payload %d", i).isTrue();
                    }
                }
            }
            c.rollback();
        }
    }
}
