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
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The polls of one consumer of ingest, bounded in what one record can cost: values over {@link Limits#MAX_RECORD_BYTES}
 * after decompression are never copied, a poll takes at most its {@link PollBudget}, and each poll is preceded by saving
 * the positions it reads from in the {@link ReadLedger}. After a process died reading (rows left unclean), the consumer
 * is created to read one record a poll until it is past where that happened, so that a record that ends processes is
 * found exactly and set aside after {@link ReadLedger#DEATHS_BEFORE_SET_ASIDE} deaths.
 */
public final class GuardedPolls {

    private static final Logger LOG = Logger.getLogger(GuardedPolls.class);

    private final ReadLedger ledger;
    private final String group;
    private final ReadLedger.Recovery recovery;
    private final PollBudget budget;
    private final Map<TopicPartition, Long> saved = new HashMap<>();
    private final Map<TopicPartition, Long> endAtStart = new HashMap<>();

    private GuardedPolls(ReadLedger ledger, String group, ReadLedger.Recovery recovery, long pollBytes) {
        this.ledger = ledger;
        this.group = group;
        this.recovery = recovery;
        this.budget = new PollBudget(pollBytes);
    }

    /** The guard of a consumer of {@code group} about to be created; reads what a process that died there left. */
    public static GuardedPolls start(ReadLedger ledger, String group, int maxPollRecords, long pollBytes)
            throws SQLException {
        ReadLedger.Recovery recovery = ledger.recover(group, maxPollRecords);
        if (recovery.careful()) {
            LOG.warnf(
                    "a process of consumer group %s ended while reading; reading one record at a time up to %s%s",
                    group,
                    recovery.carefulUntil(),
                    recovery.setAside().isEmpty() ? "" : ", setting aside the records at " + recovery.setAside());
        }
        return new GuardedPolls(ledger, group, recovery, pollBytes);
    }

    /** Whether this consumer reads one record a poll. */
    public boolean careful() {
        return recovery.careful();
    }

    /** A consumer of byte arrays with the bounded deserializers, one record a poll when careful. */
    public KafkaConsumer<byte[], byte[]> consumer(Properties properties) {
        if (careful()) {
            properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        }
        return new KafkaConsumer<>(
                properties,
                new BoundedBytesDeserializer(BoundedBytesDeserializer.KEY_LIMIT, null),
                new BoundedBytesDeserializer(Limits.MAX_RECORD_BYTES, budget));
    }

    /**
     * Saves the positions of newly assigned partitions: their first poll may already read. A careful consumer reads one
     * partition at a time (see {@link #focus}), the others paused, so that a death is told to the partition it read.
     */
    public void assigned(KafkaConsumer<byte[], byte[]> c, Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            saved.remove(tp);
        }
        if (careful()) {
            focus(c);
            return;
        }
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            positions.put(tp, c.position(tp));
        }
        save(positions);
    }

    /** Polls after saving the positions that moved since the last save (a careful consumer: its one partition's). */
    public ConsumerRecords<byte[], byte[]> poll(KafkaConsumer<byte[], byte[]> c, Duration timeout) {
        if (careful()) {
            focus(c);
        } else {
            Map<TopicPartition, Long> moved = new HashMap<>();
            for (TopicPartition tp : c.assignment()) {
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
        return c.poll(timeout);
    }

    /**
     * The owned partition a careful consumer reads now, the lowest one not yet past where a process died: it alone is
     * resumed, and its position saved as exact, before each poll.
     */
    private void focus(KafkaConsumer<byte[], byte[]> c) {
        TopicPartition focus = c.assignment().stream()
                .filter(tp -> !passed(c, tp))
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
        Long until = recovery.carefulUntil().get(tp);
        if (until == null) {
            return true;
        }
        long end = endAtStart.computeIfAbsent(tp, p -> c.endOffsets(List.of(p)).get(p));
        return c.position(tp) >= Math.min(until, end);
    }

    /** The record to set aside before reading on, if the consumer is at one: processes died reading it. */
    public Long setAsideAt(KafkaConsumer<byte[], byte[]> c, TopicPartition tp) {
        Long offset = recovery.setAside().get(tp);
        return offset != null && c.assignment().contains(tp) && c.position(tp) == offset ? offset : null;
    }

    /** A careful consumer is past every position where a process died, on each partition it owns. */
    public boolean recovered(KafkaConsumer<byte[], byte[]> c) {
        return careful() && !c.assignment().isEmpty() && c.assignment().stream().allMatch(tp -> passed(c, tp));
    }

    /** The consumer closed: nothing died where it read. */
    public void closed() {
        try {
            ledger.closed(group);
        } catch (SQLException e) {
            LOG.warnf("could not mark the read positions of %s clean (%s); the next start reads carefully", group, e);
        }
    }

    private void save(Map<TopicPartition, Long> positions) {
        try {
            ledger.save(group, positions, careful());
        } catch (SQLException e) {
            throw new KafkaException("could not save the read positions of " + group + " before a poll", e);
        }
        saved.putAll(positions);
    }
}
