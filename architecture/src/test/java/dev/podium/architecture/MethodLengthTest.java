package dev.podium.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method of the modules' main sources is over {@value MethodLengths#MAX_LINES} lines unless a comment before it says
 * why (it holds "over 60 lines", in any case); the fixture {@code lengthfixture.LongMethods} shows what is caught.
 */
class MethodLengthTest {

    private static final Path FIXTURE = Path.of("src/test/java/dev/podium/architecture/lengthfixture/LongMethods.java");

    @Test
    void noMainMethodIsOverSixtyLinesWithoutSayingWhy() throws IOException {
        List<MethodLengths.Method> methods = MethodLengths.of(mainSources());

        assertThat(methods).as("methods read").hasSizeGreaterThan(1000);
        assertThat(methods.stream().filter(MethodLengths.Method::tooLong))
                .as("methods over %d lines without a comment that says why", MethodLengths.MAX_LINES)
                .isEmpty();
    }

    @Test
    void theCheckCatchesTheFixturesLongMethodsAndPassesTheOthers() throws IOException {
        List<MethodLengths.Method> methods = MethodLengths.of(List.of(FIXTURE));

        assertThat(methods)
                .extracting(MethodLengths.Method::name, MethodLengths.Method::line, MethodLengths.Method::lines)
                .containsExactly(
                        tuple("sixtyOneLines", 10, 61),
                        tuple("sixtyLines", 72, 60),
                        tuple("explained", 135, 61),
                        tuple("Compact", 198, 62));
        assertThat(methods.stream().filter(MethodLengths.Method::tooLong).map(MethodLengths.Method::name))
                .containsExactly("sixtyOneLines", "Compact");
    }

    /** The main sources of every module beside this one, so that a new module is checked too. */
    private static List<Path> mainSources() throws IOException {
        List<Path> roots;
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            roots = modules.map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList();
        }
        assertThat(roots.stream().map(r -> r.getName(1).toString()))
                .as("modules with main sources")
                .containsAll(Layering.MODULES);
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
            }
        }
        return files;
    }
}
