package dev.podium.agent.journal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The agent's write-ahead journal: one file per entry, so an entry is either wholly there or not at all. An entry is
 * written to a temporary file, forced to disk ({@link FileChannel#force}), renamed into {@code pending/} and the directory
 * forced, all before it is handed to Kafka. When Kafka acknowledges it, the file is renamed into {@code sent/}; sent entries
 * are kept for the {@code journal} command and pruned oldest first when space is needed. Pending entries are never pruned:
 * when they alone would exceed the bound, {@link #append} fails with {@link JournalFullException}.
 * <p>
 * Several agent processes may share a journal (a daemon and a one-off {@code run}): entry ids carry the process start time
 * and pid, so they never collide, and resending an entry twice is harmless because ingest drops duplicates by event id.
 */
public final class Journal {

    private static final Logger LOG = Logger.getLogger(Journal.class.getName());
    private static final int MAGIC = 0x504a4531; // "PJE1"
    private static final String SUFFIX = ".entry";

    private final Path pending;
    private final Path sent;
    private final Path tmp;
    private final long maxBytes;
    /** Shared by every journal of this JVM: two instances on one directory (two commands in one process) never collide. */
    private static final AtomicLong COUNTER = new AtomicLong();

    private final String prefix;

    public Journal(Path dir, long maxBytes) {
        this.pending = dir.resolve("pending");
        this.sent = dir.resolve("sent");
        this.tmp = dir.resolve("tmp");
        this.maxBytes = maxBytes;
        this.prefix = String.format(
                "%013d-%08d-",
                ProcessHandle.current()
                        .info()
                        .startInstant()
                        .map(Instant::toEpochMilli)
                        .orElse(System.currentTimeMillis()),
                ProcessHandle.current().pid());
        try {
            Files.createDirectories(pending);
            Files.createDirectories(sent);
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create journal directories under " + dir, e);
        }
    }

    public Path directory() {
        return pending.getParent();
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Writes the entry durably and returns it with its id. */
    public synchronized JournalEntry append(String topic, String key, Map<String, byte[]> headers, byte[] value) {
        String id = prefix + String.format("%09d", COUNTER.incrementAndGet());
        JournalEntry entry = new JournalEntry(id, topic, key, headers, value);
        byte[] bytes = serialize(entry);
        makeRoom(bytes.length);
        Path t = tmp.resolve(id + SUFFIX);
        try (FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write journal entry " + t, e);
        }
        Path target = pending.resolve(id + SUFFIX);
        if (Files.exists(target) || Files.exists(sent.resolve(id + SUFFIX))) {
            // A rename would silently replace it; ids are unique by construction, so this is a bug, never data to lose.
            throw new IllegalStateException("journal entry " + id + " exists already in " + directory());
        }
        move(t, target);
        forceDirectory(pending);
        return entry;
    }

    /** Marks an entry acknowledged by Kafka. Idempotent: a second call, or one from another process, changes nothing. */
    public synchronized void markSent(String id) {
        Path from = pending.resolve(id + SUFFIX);
        if (Files.exists(from)) {
            try {
                move(from, sent.resolve(id + SUFFIX));
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
            }
            forceDirectory(sent);
        }
    }

    /** Entries not yet acknowledged, oldest first. An unreadable entry is reported and skipped, never deleted. */
    public List<JournalEntry> pending() {
        return read(pending);
    }

    public List<JournalEntry> sent() {
        return read(sent);
    }

    public int pendingCount() {
        return names(pending).size();
    }

    public long pendingBytes() {
        return bytes(pending);
    }

    public long sentBytes() {
        return bytes(sent);
    }

    private void makeRoom(long needed) {
        long pendingBytes = bytes(pending);
        if (pendingBytes + needed > maxBytes) {
            throw new JournalFullException("the journal at " + directory() + " is full: " + pendingCount()
                    + " entries not yet acknowledged by Kafka use " + pendingBytes + " of " + maxBytes
                    + " bytes. Make Kafka reachable (they are sent automatically) or raise --journal-max-bytes.");
        }
        long total = pendingBytes + bytes(sent);
        if (total + needed <= maxBytes) {
            return;
        }
        for (Path p : names(sent)) {
            try {
                long size = Files.size(p);
                Files.deleteIfExists(p);
                total -= size;
            } catch (IOException e) {
                LOG.warning("cannot prune sent journal entry " + p + ": " + e.getMessage());
            }
            if (total + needed <= maxBytes) {
                return;
            }
        }
    }

    private List<JournalEntry> read(Path dir) {
        List<JournalEntry> out = new ArrayList<>();
        for (Path p : names(dir)) {
            try {
                out.add(deserialize(p.getFileName().toString().replace(SUFFIX, ""), Files.readAllBytes(p)));
            } catch (NoSuchFileException e) {
                // sent meanwhile by another process
            } catch (IOException | RuntimeException e) {
                LOG.warning("skipping unreadable journal entry " + p + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static List<Path> names(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(SUFFIX))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static long bytes(Path dir) {
        long n = 0;
        for (Path p : names(dir)) {
            try {
                n += Files.size(p);
            } catch (IOException e) {
                // gone meanwhile
            }
        }
        return n;
    }

    static byte[] serialize(JournalEntry e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(e.value().length + 256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeUTF(e.topic());
            out.writeUTF(e.key());
            out.writeInt(e.headers().size());
            for (Map.Entry<String, byte[]> h : new TreeMap<>(e.headers()).entrySet()) {
                out.writeUTF(h.getKey());
                out.writeInt(h.getValue().length);
                out.write(h.getValue());
            }
            out.writeInt(e.value().length);
            out.write(e.value());
            CRC32 crc = new CRC32();
            crc.update(bytes.toByteArray());
            out.writeLong(crc.getValue());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    static JournalEntry deserialize(String id, byte[] bytes) throws IOException {
        if (bytes.length < 12) {
            throw new IOException("truncated entry");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        if (crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong()) {
            throw new IOException("checksum mismatch");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8));
        if (in.readInt() != MAGIC) {
            throw new IOException("not a journal entry");
        }
        String topic = in.readUTF();
        String key = in.readUTF();
        int n = in.readInt();
        Map<String, byte[]> headers = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            byte[] v = new byte[in.readInt()];
            in.readFully(v);
            headers.put(name, v);
        }
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        return new JournalEntry(id, topic, key, headers, value);
    }

    private static void move(Path from, Path to) {
        try {
            try {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes a rename durable; not every file system lets a directory be opened, which is then accepted. */
    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // e.g. Windows: directory entries are durable with the file there
        }
    }
}
