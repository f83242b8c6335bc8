package dev.podium.ingest.consumer;

import dev.podium.events.kafka.BoundedBytesDeserializer;
import dev.podium.events.kafka.PollBudget;
import dev.podium.events.validate.Limits;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The polls of one consumer thread of ingest, bounded in what one record can cost: values over
 * {@link Limits#MAX_RECORD_BYTES} after decompression are never copied, a poll takes at most its {@link PollBudget}, and
 * each poll is preceded by saving the positions it reads from in the {@link ReadLedger}. A partition assigned with a
 * {@link ReadLedger.Suspect} (a process died holding it) is read by a careful consumer, created for it, that takes one
 * record a poll from one partition at a time, the others paused, so that a death is told to the record being read; once
 * the consumer thread owns no suspect partition it reads whole batches again. The thread's loop closes the consumer and
 * creates the next one when {@link #recreate} says so.
 */
public final class GuardedPolls {

    private static final Logger LOG = Logger.getLogger(GuardedPolls.class);

    private final ReadLedger ledger;
    private final String group;
    private final int maxPollRecords;
    private final PollBudget budget;
    /** Partitions where a process died, held across the consumers of this thread until read past. */
    private final Map<TopicPartition, ReadLedger.Suspect> suspects = new HashMap<>();

    private final Map<TopicPartition, Long> saved = new HashMap<>();
    private final Map<TopicPartition, Long> endAtStart = new HashMap<>();
    private boolean careful;
    /** Partitions paused for the coming poll by {@link #rotate}, and those to resume before the poll after it. */
    private final Set<TopicPartition> rotated = new HashSet<>();

    private final Set<TopicPartition> toResume = new HashSet<>();
    /** Partitions paused by {@link #holdBack}: their records wait in the consumer's read-ahead up to its bound. */
    private final Set<TopicPartition> heldBack = new HashSet<>();

    public GuardedPolls(ReadLedger ledger, String group, int maxPollRecords, long pollBytes) {
        this.ledger = ledger;
        this.group = group;
        this.maxPollRecords = maxPollRecords;
        this.budget = new PollBudget(pollBytes);
    }

    /** A consumer of byte arrays with the bounded deserializers; careful (one record a poll) while suspects remain. */
    public KafkaConsumer<byte[], byte[]> consumer(Properties properties) {
        careful = !suspects.isEmpty();
        saved.clear();
        endAtStart.clear();
        rotated.clear();
        toResume.clear();
        heldBack.clear();
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, careful ? 1 : maxPollRecords);
        return new KafkaConsumer<>(
                properties,
                new BoundedBytesDeserializer(BoundedBytesDeserializer.KEY_LIMIT, null),
                new BoundedBytesDeserializer(Limits.MAX_RECORD_BYTES, budget));
    }

    /** Whether this consumer reads one record a poll. */
    public boolean careful() {
        return careful;
    }

    /**
     * In {@code onPartitionsAssigned}: takes over the partitions' rows, and saves their positions (their first poll may
     * already read). A consumer reading whole batches that meets a suspect pauses it and asks to be recreated careful.
     */
    public void assigned(KafkaConsumer<byte[], byte[]> c, Collection<TopicPartition> partitions) {
        Set<TopicPartition> met = new HashSet<>();
        for (TopicPartition tp : partitions) {
            saved.remove(tp);
            ReadLedger.Suspect s = claim(tp);
            if (s != null) {
                suspects.put(tp, s);
            }
            if (suspects.containsKey(tp)) {
                met.add(tp);
            }
        }
        if (careful) {
            focus(c);
            return;
        }
        if (!met.isEmpty()) {
            LOG.warnf(
                    "a process of consumer group %s ended while reading %s; reading them one record at a time (%s)",
                    group, met, met.stream().map(suspects::get).toList());
            c.pause(met);
        }
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            if (!met.contains(tp)) {
                positions.put(tp, c.position(tp));
            }
        }
        save(positions);
    }

    /**
     * In {@code onPartitionsRevoked} (also when the consumer closes): the partitions are handed over cleanly, but for
     * suspects not read past yet, which their next owner must read carefully too. The suspects stay known here: the
     * next consumer of this thread may get them back ({@link #recreate} forgets those it does not own).
     */
    public void revoked(Collection<TopicPartition> partitions) {
        List<TopicPartition> clean =
                partitions.stream().filter(tp -> !suspects.containsKey(tp)).toList();
        saved.keySet().removeAll(partitions);
        heldBack.removeAll(partitions);
        try {
            ledger.released(group, clean);
        } catch (SQLException e) {
            LOG.warnf(
                    "could not mark the read positions of %s clean (%s); their next owner reads them carefully",
                    clean, e);
        }
    }

    /** In {@code onPartitionsLost}: fenced, so nothing is marked; the next owner treats them as a death. */
    public void lost(Collection<TopicPartition> partitions) {
        suspects.keySet().removeAll(partitions);
        saved.keySet().removeAll(partitions);
        heldBack.removeAll(partitions);
    }

    /**
     * Before a poll: the partitions whose records wait in the consumer's read-ahead up to its bound ({@code full}) stay
     * paused until they are written; those held back before and no longer full are read again (unless the rotation
     * holds them for this poll, which resumes them itself).
     */
    public void holdBack(KafkaConsumer<byte[], byte[]> c, Set<TopicPartition> full) {
        Set<TopicPartition> release = new HashSet<>(heldBack);
        release.removeAll(full);
        release.removeAll(rotated);
        release.removeAll(suspects.keySet());
        release.retainAll(c.assignment());
        c.resume(release);
        heldBack.clear();
        for (TopicPartition tp : full) {
            if (c.assignment().contains(tp)) {
                heldBack.add(tp);
            }
        }
        c.pause(heldBack);
    }

    /** Polls after saving the positions that moved since the last save (a careful consumer: its one partition's). */
    public ConsumerRecords<byte[], byte[]> poll(KafkaConsumer<byte[], byte[]> c, Duration timeout) {
        if (careful) {
            focus(c);
        } else {
            resumeRotated(c);
            Map<TopicPartition, Long> moved = new HashMap<>();
            for (TopicPartition tp : c.assignment()) {
                if (c.paused().contains(tp)) {
                    continue;
                }
                try {
                    long position = c.position(tp, Duration.ZERO);
                    if (!Long.valueOf(position).equals(saved.get(tp))) {
                        moved.put(tp, position);
                    }
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    // no position yet: assigned() saved it when the partition came
                }
            }
            save(moved);
        }
        budget.reset();
        ConsumerRecords<byte[], byte[]> records = c.poll(timeout);
        if (!careful) {
            rotate(c, records);
        }
        return records;
    }

    /**
     * After a poll that spent its budget: Kafka hands out the records it fetched one partition at a time, so a partition
     * holding a backlog of large records (a flood, a planted run) would fill poll after poll while another partition's
     * few records wait behind it. The partitions this poll read are paused for the next poll, which moves their fetched
     * records behind the others'; only while another partition is known to hold records (its lag), so that a backlog
     * alone is read at full speed.
     */
    private void rotate(KafkaConsumer<byte[], byte[]> c, ConsumerRecords<byte[], byte[]> records) {
        if (!budget.spent() || records.isEmpty()) {
            return;
        }
        Set<TopicPartition> read = records.partitions();
        Set<TopicPartition> paused = c.paused();
        boolean othersWait = c.assignment().stream()
                .filter(tp -> !read.contains(tp) && !paused.contains(tp))
                .anyMatch(tp -> c.currentLag(tp).orElse(0) > 0);
        if (othersWait) {
            List<TopicPartition> step =
                    read.stream().filter(tp -> !paused.contains(tp)).toList();
            c.pause(step);
            rotated.addAll(step);
        }
    }

    /** Each partition {@link #rotate} paused stays paused for one poll: resumed before the poll after it. */
    private void resumeRotated(KafkaConsumer<byte[], byte[]> c) {
        if (!toResume.isEmpty()) {
            toResume.retainAll(c.assignment());
            toResume.removeAll(heldBack);
            c.resume(toResume);
            toResume.clear();
        }
        toResume.addAll(rotated);
        rotated.clear();
    }

    /**
     * Before a careful consumer writes what it read: its positions saved as not exact, so that a death while writing
     * (bounded work: no record there is over the limits) is not counted against the record read last.
     */
    public void beforeWrite(KafkaConsumer<byte[], byte[]> c) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : c.assignment()) {
            if (!c.paused().contains(tp)) {
                positions.put(tp, c.position(tp));
            }
        }
        try {
            ledger.save(group, positions, false);
        } catch (SQLException e) {
            throw new KafkaException("could not save the read positions of " + group + " before a write", e);
        }
        saved.keySet().removeAll(positions.keySet());
    }

    /**
     * Whether the consumer is to be closed and created again: one reading whole batches met a suspect, or a careful one
     * has read past every suspect it owns.
     */
    public boolean recreate(KafkaConsumer<byte[], byte[]> c) {
        if (!careful) {
            return c.assignment().stream().anyMatch(suspects::containsKey);
        }
        if (c.assignment().isEmpty()) {
            return false;
        }
        suspects.keySet().retainAll(c.assignment());
        suspects.keySet().removeIf(tp -> passed(c, tp));
        return suspects.isEmpty();
    }

    /** A record at which processes died reading it, where a careful consumer is now: to set aside, not read. */
    public record DeadRecord(TopicPartition partition, long offset) {}

    /** The record to set aside before reading on, if a careful consumer is at one on any partition it owns. */
    public Optional<DeadRecord> deadRecord(KafkaConsumer<byte[], byte[]> c) {
        if (!careful) {
            return Optional.empty();
        }
        for (TopicPartition tp : c.assignment()) {
            ReadLedger.Suspect s = suspects.get(tp);
            if (s != null && s.setAside() != null && c.position(tp) == s.setAside()) {
                return Optional.of(new DeadRecord(tp, s.setAside()));
            }
        }
        return Optional.empty();
    }

    /**
     * The owned suspect a careful consumer reads now, the lowest not yet read past: it alone is resumed, and its position
     * saved as exact, before each poll.
     */
    private void focus(KafkaConsumer<byte[], byte[]> c) {
        TopicPartition focus = c.assignment().stream()
                .filter(tp -> suspects.containsKey(tp) && !passed(c, tp))
                .min(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .orElse(null);
        Set<TopicPartition> others = new HashSet<>(c.assignment());
        if (focus != null) {
            others.remove(focus);
            c.resume(List.of(focus));
            long position = c.position(focus);
            if (!Long.valueOf(position).equals(saved.get(focus))) {
                save(Map.of(focus, position));
            }
        }
        c.pause(others);
    }

    /**
     * Past where a process died, or at the end the partition had when this consumer first looked: a record that came
     * later was not there to end that process.
     */
    private boolean passed(KafkaConsumer<byte[], byte[]> c, TopicPartition tp) {
        ReadLedger.Suspect s = suspects.get(tp);
        if (s == null) {
            return true;
        }
        long end = endAtStart.computeIfAbsent(tp, p -> c.endOffsets(List.of(p)).get(p));
        return c.position(tp) >= Math.min(s.until(), end);
    }

    private ReadLedger.Suspect claim(TopicPartition tp) {
        try {
            return ledger.claim(group, tp, maxPollRecords);
        } catch (SQLException e) {
            throw new KafkaException("could not read where the last owner of " + tp + " stopped", e);
        }
    }

    private void save(Map<TopicPartition, Long> positions) {
        try {
            ledger.save(group, positions, careful);
        } catch (SQLException e) {
            throw new KafkaException("could not save the read positions of " + group + " before a poll", e);
        }
        saved.putAll(positions);
    }
}
