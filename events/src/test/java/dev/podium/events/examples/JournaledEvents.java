package dev.podium.events.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The envelopes of a folder of journal dumps (one envelope per line), each decoded and validated as ingest does. */
final class JournaledEvents {

    private static final EventCodec CODEC = new EventCodec();

    private JournaledEvents() {}

    static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    static List<Envelope> decodeAll(List<Path> files) throws IOException {
        List<Envelope> out = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Decoded d = CODEC.decode(line.getBytes(StandardCharsets.UTF_8));
                assertThat(d)
                        .as(file.getFileName() + ": " + line.substring(0, Math.min(120, line.length())))
                        .isInstanceOf(Decoded.Accepted.class);
                out.add(((Decoded.Accepted) d).envelope());
            }
        }
        return out;
    }

    static <T> List<T> payloads(List<Envelope> events, Class<T> type) {
        return events.stream()
                .map(Envelope::payload)
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }
}
