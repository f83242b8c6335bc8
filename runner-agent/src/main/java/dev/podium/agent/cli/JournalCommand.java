package dev.podium.agent.cli;

import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.Publisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "journal",
        mixinStandardHelpOptions = true,
        description =
                "List the journal's pending (not yet acknowledged by Kafka) and sent entries; --flush sends pending ones.")
public final class JournalCommand implements Callable<Integer> {

    private static final Pattern TYPE = Pattern.compile("\"type\":\"([A-Za-z]+)\"");

    @Mixin
    AgentOptions options;

    @Option(
            names = "--flush",
            description = "Send pending entries to Kafka and wait up to --flush-timeout for acknowledgements.")
    boolean flush;

    @Option(names = "--sent", description = "Also list sent entries.")
    boolean listSent;

    @Option(
            names = "--dump",
            description = "Print each pending entry's record value (an envelope), one per line, in order.")
    boolean dump;

    @Override
    public Integer call() throws Exception {
        Journal journal = options.journal();
        if (flush) {
            String bootstrap = options.bootstrapOnly();
            if (bootstrap == null) {
                System.err.println(
                        "podium-agent: --flush needs --bootstrap-servers (or a key file / PODIUM_KAFKA_BOOTSTRAP)");
                return 2;
            }
            int before = journal.pendingCount();
            try (Publisher publisher = new Publisher(journal, bootstrap, options.loginOnly())) {
                int left = publisher.awaitDelivered(Duration.ofSeconds(options.flushTimeoutSeconds));
                System.out.println("sent " + (before - left) + " of " + before + " pending entries"
                        + (left > 0
                                ? "; " + left + " still pending"
                                        + (publisher.lastError() == null ? "" : ": " + publisher.lastError())
                                : ""));
                return left == 0 ? 0 : 1;
            }
        }
        List<JournalEntry> pending = journal.pending();
        if (dump) {
            for (JournalEntry e : pending) {
                System.out.println(new String(e.value(), StandardCharsets.UTF_8));
            }
            return 0;
        }
        System.out.printf(
                Locale.ROOT,
                "journal %s: %d pending (%d bytes), %d sent (%d bytes), bound %d bytes%n",
                journal.directory(),
                pending.size(),
                journal.pendingBytes(),
                journal.sent().size(),
                journal.sentBytes(),
                journal.maxBytes());
        for (JournalEntry e : pending) {
            print("pending", e);
        }
        if (listSent) {
            for (JournalEntry e : journal.sent()) {
                print("sent", e);
            }
        }
        return 0;
    }

    private static void print(String state, JournalEntry e) {
        String head = new String(e.value(), 0, Math.min(e.value().length, 4096), StandardCharsets.UTF_8);
        Matcher m = TYPE.matcher(head);
        System.out.printf(
                Locale.ROOT,
                "%-8s %s %-16s %-15s %s (%d bytes)%n",
                state,
                e.id(),
                m.find() ? m.group(1) : "?",
                e.topic(),
                e.key(),
                e.value().length);
    }
}
