package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.projection.Projections;
import dev.podium.ingest.store.Appended;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.NewEvent;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Appends command-side events straight to the event store in the caller's transaction, with writer
 * {@code command:<token name>}, and applies their projections in the same transaction.
 */
@ApplicationScoped
public class CommandAppender {

    private final EventStore store;
    private final Projections projections;
    private final EventCodec codec = new EventCodec();

    public CommandAppender(EventStore store, Projections projections) {
        this.store = store;
        this.projections = projections;
    }

    public List<Appended> append(Connection c, List<Envelope> envelopes, String writer) throws SQLException {
        Projections.lockShared(c);
        List<NewEvent> events = new ArrayList<>(envelopes.size());
        for (Envelope env : envelopes) {
            byte[] bytes = codec.encode(env);
            String payload = codec.toTree(env).get("payload").toString();
            events.add(new NewEvent(env, writer, null, payload, EventCodec.contentHash(bytes), null, null, null));
        }
        List<Appended> appended = store.append(c, events);
        List<StoredEvent> fresh = new ArrayList<>();
        for (int i = 0; i < appended.size(); i++) {
            if (appended.get(i) instanceof Appended.Inserted ins) {
                fresh.add(new StoredEvent(ins.position(), envelopes.get(i)));
            }
        }
        projections.apply(c, fresh);
        return appended;
    }
}
