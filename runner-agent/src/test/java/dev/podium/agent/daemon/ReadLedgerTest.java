package dev.podium.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's read ledger across the processes of one home: each test loads the file again where a new process would,
 * after the last one died (nothing more written) or closed.
 */
class ReadLedgerTest {

    static final TopicPartition P0 = new TopicPartition("podium.jobs", 0);
    static final TopicPartition P1 = new TopicPartition("podium.jobs", 1);
    static final int BATCH = 500;

    @TempDir
    Path dir;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream log = new PrintStream(out, true, StandardCharsets.UTF_8);

    ReadLedger load() {
        return ReadLedger.load(dir.resolve("jobs-read-ledger"), BATCH, log);
    }

    /** A start with P0 holding offsets 0 to 9 and P1 nothing. */
    Map<TopicPartition, Long> start(ReadLedger ledger) {
        return ledger.start(Map.of(P0, 0L, P1, 0L), Map.of(P0, 10L, P1, 0L));
    }

    @Test
    void aFirstStartReadsEverythingInBatches() {
        assertThat(start(load())).isEmpty();
    }

    @Test
    void aDeathInABatchThenOneAtARecordSetsThatRecordAside() {
        ReadLedger first = load();
        start(first);
        first.reading(Map.of(P0, 3L, P1, 0L), false); // dies in this poll

        ReadLedger second = load();
        assertThat(start(second)).as("read one record a poll up to the end").containsExactly(Map.entry(P0, 10L));
        assertThat(second.setAside(P0, 5)).isEmpty();
        second.reading(Map.of(P0, 3L), true);
        second.reading(Map.of(P0, 4L), true);
        second.reading(Map.of(P0, 5L), true); // dies reading record 5 alone

        ReadLedger third = load();
        assertThat(start(third)).containsExactly(Map.entry(P0, 6L));
        assertThat(third.setAside(P0, 5))
                .contains("too large after decompression: the agent ended each time it read this record, 2 times");
        assertThat(third.setAside(P0, 4)).isEmpty();
    }

    @Test
    void twoDeathsAtOneRecordAloneSetItAside() {
        ReadLedger first = load();
        start(first);
        first.reading(Map.of(P0, 7L), true);
        ReadLedger second = load();
        assertThat(start(second)).containsExactly(Map.entry(P0, 8L));
        assertThat(second.setAside(P0, 7)).isEmpty();
        second.reading(Map.of(P0, 7L), true);

        ReadLedger third = load();
        start(third);
        assertThat(third.setAside(P0, 7)).isPresent();
    }

    @Test
    void deathsAtDifferentRecordsSetNothingAside() {
        ReadLedger first = load();
        start(first);
        first.reading(Map.of(P0, 2L), true);
        ReadLedger second = load();
        start(second);
        second.reading(Map.of(P0, 6L), true);

        ReadLedger third = load();
        assertThat(start(third)).containsExactly(Map.entry(P0, 7L));
        assertThat(third.setAside(P0, 2)).isEmpty();
        assertThat(third.setAside(P0, 6)).isEmpty();
    }

    @Test
    void aDeathWhereNoRecordWasIsNoDeathAtARecord() {
        ReadLedger first = load();
        start(first);
        first.reading(Map.of(P0, 10L, P1, 0L), false); // at the end of both: something else ended the process

        assertThat(start(load())).isEmpty();
    }

    @Test
    void aCleanCloseBlamesNothingAndARecordSetAsideStaysAsideUntilItLeavesTheTopic() {
        for (int i = 0; i < 2; i++) {
            ReadLedger l = load();
            start(l);
            l.reading(Map.of(P0, 4L), true);
        }
        ReadLedger third = load();
        start(third);
        third.reading(Map.of(P0, 9L, P1, 0L), false);
        third.closed();

        ReadLedger fourth = load();
        assertThat(start(fourth)).as("past the record set aside").containsExactly(Map.entry(P0, 5L));
        assertThat(fourth.setAside(P0, 4)).isPresent();
        fourth.closed();

        ReadLedger afterRetention = load();
        assertThat(afterRetention.start(Map.of(P0, 5L, P1, 0L), Map.of(P0, 12L, P1, 0L)))
                .isEmpty();
        assertThat(afterRetention.setAside(P0, 4)).isEmpty();
    }

    @Test
    void anUnreadableLedgerIsReadAsEmptyAndSaysSo() throws Exception {
        Files.writeString(dir.resolve("jobs-read-ledger"), "clean=false\npartition.0.reading=not a number\n");

        assertThat(start(load())).isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("cannot read the read ledger");
    }
}
