package dev.podium.agent.daemon;

import dev.podium.agent.publish.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the agent's reader of {@code podium.jobs} was about to read, saved in a small file of the agent's home before
 * every poll that reads from a new position. Kafka decompresses a record whole before any check can see it, so a record
 * too large for the heap ends the agent ({@code -XX:+ExitOnOutOfMemoryError}) inside {@code poll}, and since the agent
 * reads the topic from its beginning at every start, it would end again at each one. A start that finds the ledger not
 * closed cleanly counts a death at the records the last poll could read and reads them one record a poll, so that a
 * second death is told to one record; a record at which the agent died twice is set aside, and skipped at every later
 * start while it is on the topic.
 * <p>
 * Ingest keeps these rules in a table shared by the processes of a consumer group (its {@code ReadLedger}, in SQL); the
 * agent reads alone, so a file does. One rule differs: a death in a poll of many records also counts at the record,
 * among those it could read, where a later death one record a poll happens (ingest counts only deaths one record a
 * poll), so a record too large for the heap costs the agent two restarts, not three.
 */
final class ReadLedger {

    /** Deaths at one record before it is set aside. */
    static final int DEATHS_BEFORE_SET_ASIDE = 2;

    /**
     * Offsets {@code [from, until)} of a partition where the agent ended {@code count} times, each time in a poll that
     * could read any of them: a poll of one record names one offset. A death whose poll could read none of these starts
     * the count again.
     */
    record Deaths(long from, long until, int count) {

        Deaths and(long otherFrom, long otherUntil) {
            long f = Math.max(from, otherFrom);
            long u = Math.min(until, otherUntil);
            return f < u ? new Deaths(f, u, count + 1) : new Deaths(otherFrom, otherUntil, 1);
        }

        boolean oneRecord() {
            return until - from == 1;
        }
    }

    /** What the ledger knows of one partition. */
    private static final class Entry {
        /** Where the last poll read from, or null: the partition was not being read. */
        Long reading;
        /** Whether that poll read one record at most. */
        boolean exact;

        Deaths deaths;
        /** Records set aside: offset, and the deaths at it. */
        final TreeMap<Long, Integer> setAside = new TreeMap<>();
    }

    private final Path file;
    private final int maxPollRecords;
    private final Map<Integer, Entry> entries = new TreeMap<>();
    private boolean clean = true;
    private boolean started;

    private ReadLedger(Path file, int maxPollRecords) {
        this.file = file;
        this.maxPollRecords = maxPollRecords;
    }

    /**
     * The ledger in {@code file}; an unreadable one is reported on {@code log} and read as empty (the agent then reads as
     * it would without a ledger).
     */
    static ReadLedger load(Path file, int maxPollRecords, PrintStream log) {
        ReadLedger ledger = new ReadLedger(file, maxPollRecords);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
            ledger.clean = !"false".equals(p.getProperty("clean"));
            for (String key : p.stringPropertyNames()) {
                String[] part = key.split("\\.");
                if (part.length < 3 || !part[0].equals("partition")) {
                    continue;
                }
                Entry e = ledger.entries.computeIfAbsent(Integer.valueOf(part[1]), n -> new Entry());
                String value = p.getProperty(key);
                switch (part[2]) {
                    case "reading" -> e.reading = Long.valueOf(value);
                    case "exact" -> e.exact = Boolean.parseBoolean(value);
                    case "died" -> {
                        String[] d = value.split(" ");
                        e.deaths = new Deaths(Long.parseLong(d[0]), Long.parseLong(d[1]), Integer.parseInt(d[2]));
                    }
                    case "set-aside" -> e.setAside.put(Long.valueOf(part[3]), Integer.valueOf(value));
                    default -> {
                        // a key of a later version
                    }
                }
            }
        } catch (NoSuchFileException e) {
            // first start
        } catch (IOException | RuntimeException e) {
            log.println("cannot read the read ledger " + file + " (" + e + "); reading " + Topics.JOBS + " without it");
            ledger.entries.clear();
            ledger.clean = true;
        }
        return ledger;
    }

    /**
     * At a start, with where each partition begins and ends now: when the last process did not close the ledger, counts
     * a death at the records its last poll could read (none, when none of them is on the topic: it died of something
     * else) and sets aside a record with enough deaths; forgets records that left the topic. Returns the partitions to
     * read one record a poll, each with the offset up to which: past the records where this start counted a death and
     * past every record set aside.
     */
    Map<TopicPartition, Long> start(Map<TopicPartition, Long> begin, Map<TopicPartition, Long> end) {
        started = true;
        Map<TopicPartition, Long> careful = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> b : begin.entrySet()) {
            TopicPartition tp = b.getKey();
            Entry e = entries.computeIfAbsent(tp.partition(), n -> new Entry());
            long first = b.getValue();
            long last = end.getOrDefault(tp, first);
            e.setAside.headMap(first).clear();
            if (e.deaths != null && e.deaths.until() <= first) {
                e.deaths = null;
            }
            long until = e.setAside.isEmpty() ? first : e.setAside.lastKey() + 1;
            if (!clean && e.reading != null) {
                long from = Math.max(first, e.reading);
                long to = Math.min(last, e.reading + (e.exact ? 1 : maxPollRecords));
                if (from < to) {
                    e.deaths = e.deaths == null ? new Deaths(from, to, 1) : e.deaths.and(from, to);
                    until = Math.max(until, e.deaths.until());
                    if (e.deaths.oneRecord() && e.deaths.count() >= DEATHS_BEFORE_SET_ASIDE) {
                        e.setAside.put(e.deaths.from(), e.deaths.count());
                        e.deaths = null;
                    }
                }
            }
            e.reading = null;
            if (until > first) {
                careful.put(tp, until);
            }
        }
        clean = false;
        write();
        return careful;
    }

    /** Why the record at {@code offset} is not to be read, when it is set aside. */
    Optional<String> setAside(TopicPartition tp, long offset) {
        Entry e = entries.get(tp.partition());
        Integer deaths = e == null ? null : e.setAside.get(offset);
        return deaths == null
                ? Optional.empty()
                : Optional.of("too large after decompression: the agent ended each time it read this record, " + deaths
                        + " times");
    }

    /**
     * Before a poll: the positions it reads from, the only partitions it reads ({@code exact}: one record at most).
     * Written only when they changed.
     */
    void reading(Map<TopicPartition, Long> positions, boolean exact) {
        boolean changed = false;
        for (Map.Entry<Integer, Entry> x : entries.entrySet()) {
            Long now = positions.get(new TopicPartition(Topics.JOBS, x.getKey()));
            Entry e = x.getValue();
            if (!Objects.equals(now, e.reading) || (now != null && e.exact != exact)) {
                e.reading = now;
                e.exact = exact;
                changed = true;
            }
        }
        if (changed) {
            write();
        }
    }

    /** The reader stopped without dying: nothing it was reading is to blame. */
    void closed() {
        if (started) {
            clean = true;
            entries.values().forEach(e -> e.reading = null);
            write();
        }
    }

    /**
     * A plain write and a rename, without fsync: the ledger must survive the process (an OutOfMemoryError ends it), not
     * the machine. After a crash of the machine it may be older than the last poll, or gone, and the agent then reads
     * as it would without it.
     */
    private void write() {
        StringBuilder text = new StringBuilder("# where the agent's reader of podium.jobs was about to read"
                + " (runner-agent/README.md, \"Decompression bombs on podium.jobs\")\n");
        text.append("clean=").append(clean).append('\n');
        entries.forEach((n, e) -> {
            String p = "partition." + n + ".";
            if (e.reading != null) {
                text.append(p).append("reading=").append(e.reading).append('\n');
                text.append(p).append("exact=").append(e.exact).append('\n');
            }
            if (e.deaths != null) {
                text.append(p)
                        .append("died=")
                        .append(e.deaths.from())
                        .append(' ')
                        .append(e.deaths.until())
                        .append(' ')
                        .append(e.deaths.count())
                        .append('\n');
            }
            e.setAside.forEach((offset, deaths) -> text.append(p)
                    .append("set-aside.")
                    .append(offset)
                    .append('=')
                    .append(deaths)
                    .append('\n'));
        });
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the read ledger " + file, e);
        }
    }
}
