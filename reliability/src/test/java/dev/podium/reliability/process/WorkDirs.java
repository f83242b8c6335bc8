package dev.podium.reliability.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** The suite's working directories: each test starts from an empty one, and keeps it afterwards for its logs. */
public final class WorkDirs {

    private WorkDirs() {}

    /** {@code dir}, emptied (or made) now. */
    public static Path fresh(Path dir) {
        try {
            if (Files.exists(dir)) {
                try (var files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder())
                            .forEach(f -> f.toFile().delete());
                }
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
