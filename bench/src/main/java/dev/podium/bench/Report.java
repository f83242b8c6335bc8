package dev.podium.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lines printed as they are measured and, when a file is given, appended to it for the combined report. */
final class Report {

    private final Path file;
    private final List<String> lines = new ArrayList<>();

    Report(Path file) {
        this.file = file;
    }

    void line(String format, Object... args) {
        String s = String.format(Locale.ROOT, format, args);
        System.out.println(s);
        System.out.flush();
        lines.add(s);
        if (file != null) {
            try {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.writeString(file, s + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static String verdict(boolean met) {
        return met ? "MET" : "NOT MET";
    }
}
