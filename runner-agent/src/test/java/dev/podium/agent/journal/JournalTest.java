package dev.podium.agent.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void appendedEntriesArePendingInOrderUntilMarkedSent() {
        Journal j = new Journal(dir, 1_000_000);
        JournalEntry a = j.append("podium.events", "run/1", Map.of("podium-key-id", bytes("k1")), bytes("{\"a\":1}"));
        JournalEntry b = j.append("podium.events", "run/1", Map.of(), bytes("{\"b\":2}"));
        assertThat(j.pending()).extracting(JournalEntry::id).containsExactly(a.id(), b.id());
        j.markSent(a.id());
        j.markSent(a.id()); // idempotent
        assertThat(j.pending()).extracting(JournalEntry::id).containsExactly(b.id());
        assertThat(j.sent()).extracting(JournalEntry::id).containsExactly(a.id());
    }

    @Test
    void twoJournalsOnOneDirectoryInOneProcessNeverOverwriteEachOther() {
        Journal first = new Journal(dir, 1_000_000);
        first.append("t", "k", Map.of(), bytes("first"));
        Journal second = new Journal(dir, 1_000_000);
        second.append("t", "k", Map.of(), bytes("second"));
        assertThat(second.pending())
                .extracting(e -> new String(e.value(), StandardCharsets.UTF_8))
                .containsExactly("first", "second");
    }

    @Test
    void entriesSurviveAReopenWithBytesAndHeadersIntact() {
        Journal j = new Journal(dir, 1_000_000);
        j.append("podium.events", "run/x", Map.of("podium-signature", bytes("abc")), bytes("value-bytes"));
        JournalEntry e = new Journal(dir, 1_000_000).pending().get(0);
        assertThat(e.topic()).isEqualTo("podium.events");
        assertThat(e.key()).isEqualTo("run/x");
        assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo("value-bytes");
        assertThat(new String(e.headers().get("podium-signature"), StandardCharsets.UTF_8))
                .isEqualTo("abc");
    }

    @Test
    void aFullJournalRefusesWithAClearErrorAndKeepsWhatItHas() {
        Journal j = new Journal(dir, 2_000);
        j.append("t", "k", Map.of(), new byte[900]);
        j.append("t", "k", Map.of(), new byte[900]);
        assertThatThrownBy(() -> j.append("t", "k", Map.of(), new byte[900]))
                .isInstanceOf(JournalFullException.class)
                .hasMessageContaining("is full")
                .hasMessageContaining("2 entries not yet acknowledged")
                .hasMessageContaining("--journal-max-bytes");
        assertThat(j.pendingCount()).isEqualTo(2);
    }

    @Test
    void sentEntriesArePrunedOldestFirstToMakeRoom() {
        Journal j = new Journal(dir, 2_000);
        JournalEntry a = j.append("t", "k", Map.of(), new byte[900]);
        JournalEntry b = j.append("t", "k", Map.of(), new byte[900]);
        j.markSent(a.id());
        j.markSent(b.id());
        JournalEntry c = j.append("t", "k", Map.of(), new byte[900]);
        assertThat(j.pending()).extracting(JournalEntry::id).containsExactly(c.id());
        assertThat(j.sent()).extracting(JournalEntry::id).containsExactly(b.id());
    }

    @Test
    void aCorruptedEntryIsSkippedAndNotDeleted() throws Exception {
        Journal j = new Journal(dir, 1_000_000);
        JournalEntry e = j.append("t", "k", Map.of(), bytes("good"));
        Path bad = dir.resolve("pending").resolve("0000000000000-00000000-000000000.entry");
        Files.write(bad, bytes("garbage that is not an entry"));
        assertThat(j.pending()).extracting(JournalEntry::id).containsExactly(e.id());
        assertThat(bad).exists();
    }

    @Test
    void aFlippedByteFailsTheChecksum() throws Exception {
        Journal j = new Journal(dir, 1_000_000);
        JournalEntry e = j.append("t", "k", Map.of(), bytes("payload"));
        Path file = dir.resolve("pending").resolve(e.id() + ".entry");
        byte[] content = Files.readAllBytes(file);
        content[content.length - 12] ^= 0x01;
        Files.write(file, content);
        assertThat(j.pending()).isEmpty();
    }
}
