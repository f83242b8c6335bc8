package dev.podium.reliability.fault;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.Publisher;
import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent's publishing path in a JVM of its own, so the suite can SIGKILL it: every event of the case's workload is
 * signed, appended to the agent's journal (fsync'd) and handed to the agent's {@link Publisher}, exactly as a run does.
 * Started again on the same home, it resends what the journal still holds and journals only what it did not reach.
 *
 * <p>Arguments: home bootstrap agentId keyId secret seed count. Prints {@code journaled N} as it goes and exits 0 once
 * Kafka has acknowledged everything.
 */
public final class AgentDriver {

    private static final int MAX_BACKLOG = 100;
    private static final long JOURNAL_BYTES = 256L * 1024;

    private AgentDriver() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        String bootstrap = args[1];
        Credentials key = new Credentials(args[2], args[3], args[4]);
        String seed = args[5];
        int count = Integer.parseInt(args[6]);
        // Bounded like an agent's journal, but small: every append adds up the sizes of all pending and sent entries,
        // so
        // a journal that keeps 50,000 sent entries makes each append stat 50,000 files. Pruned sent entries are no
        // longer known to a restarted driver, which then journals those events again: more redeliveries for ingest.
        Journal journal = new Journal(home.resolve("journal"), JOURNAL_BYTES);
        Set<String> journaled = journaledEventIds(journal);
        System.out.println("restart: " + journaled.size() + " events journaled before, " + journal.pendingCount()
                + " of them not acknowledged");
        EventCodec codec = new EventCodec();
        byte[] secret = EventSigner.secretBytes(key.secret());
        int total = journaled.size();
        try (Publisher publisher = new Publisher(journal, bootstrap, null)) {
            for (Envelope e : Workload.events(key.agentId(), seed, count)) {
                if (journaled.contains(e.eventId().toString())) {
                    continue;
                }
                byte[] value = codec.encode(e);
                journal.append(
                        Credentials.EVENTS,
                        e.streamId(),
                        Map.of(
                                EventSigner.KEY_ID_HEADER, key.keyId().getBytes(StandardCharsets.UTF_8),
                                EventSigner.SIGNATURE_HEADER,
                                        EventSigner.sign(value, secret).getBytes(StandardCharsets.US_ASCII)),
                        value);
                publisher.nudge();
                if (++total % 250 == 0) {
                    System.out.println("journaled " + total);
                }
                // A run emits a few events a second; this loop could emit thousands. The publisher reads every pending
                // entry on each pass (a pass per append and per acknowledgement), so a large backlog makes it slow:
                // keep the backlog at what a run would leave.
                if (total % 25 == 0) {
                    while (journal.pendingCount() > MAX_BACKLOG) {
                        Thread.sleep(5);
                    }
                }
            }
            System.out.println("journaled " + total + " (all)");
            int left = publisher.awaitDelivered(Duration.ofMinutes(30));
            System.out.println("delivered; pending " + left);
            System.exit(left == 0 ? 0 : 1);
        }
    }

    private static Set<String> journaledEventIds(Journal journal) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Set<String> ids = new HashSet<>();
        for (List<JournalEntry> entries : List.of(journal.pending(), journal.sent())) {
            for (JournalEntry e : entries) {
                ids.add(json.readTree(e.value()).get("event_id").asText());
            }
        }
        return ids;
    }
}
