package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every page, JSON and CSV answer says on the fixed seeded store, byte for byte but for the moments masked by
 * {@link GoldenCrawl}: a change meant to keep behaviour (a new way to compute a figure, a new read) must leave it equal.
 * The answers are those {@link GoldenCrawl} reaches from the site's entry points, each compared with its file under
 * {@code src/test/resources/golden}. A change meant to alter what a page says rewrites the files with
 * {@code -Dpodium.golden.update=true}, and the diff shows what it altered. The store is its own (a profile of its own
 * restarts the application on a freshly seeded database), so no other test's rows are in it.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
@TestProfile(GoldenPagesIT.OwnStore.class)
class GoldenPagesIT {

    /** Where the answers are kept, from the module's directory, where Maven runs the tests. */
    static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

    /** Where an answer that differs is written, to diff against its recorded file. */
    static final Path ACTUAL = Path.of("target", "golden-actual");

    /**
     * A store of its own; the seeded agent heartbeat once, when the database was made, so its "online" must not depend on
     * how long the service took to start and the crawl to reach /fleet: the window is half an hour (the hostile agent's
     * heartbeat is an hour old, so it stays offline).
     */
    public static class OwnStore implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("podium.query.online-window", "PT30M");
        }
    }

    @Test
    void everyAnswerIsTheOneRecorded() throws IOException {
        List<GoldenCrawl.Answer> answers = new GoldenCrawl(GoldenPagesIT::get).crawl();
        assertThat(answers).as("answers reached").hasSizeGreaterThan(40);
        if (Boolean.getBoolean("podium.golden.update")) {
            record(answers);
            return;
        }
        List<String> differing = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (GoldenCrawl.Answer a : answers) {
            Path file = GOLDEN.resolve(a.fileName());
            if (!Files.exists(file)) {
                missing.add(a.path());
            } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(a.recorded())) {
                Files.createDirectories(ACTUAL);
                Files.writeString(ACTUAL.resolve(a.fileName()), a.recorded(), StandardCharsets.UTF_8);
                differing.add(a.path() + " (diff " + file + " " + ACTUAL.resolve(a.fileName()) + ")");
            }
        }
        assertThat(missing)
                .as("answers with no recorded file (-Dpodium.golden.update=true records them)")
                .isEmpty();
        assertThat(differing)
                .as("answers that differ from their recorded file (diff it; rerun with -Dpodium.golden.update=true"
                        + " where the change is meant)")
                .isEmpty();
        assertThat(recordedFiles())
                .as("recorded answers no longer reached")
                .containsExactlyInAnyOrderElementsOf(
                        answers.stream().map(GoldenCrawl.Answer::fileName).toList());
    }

    private static void record(List<GoldenCrawl.Answer> answers) throws IOException {
        Files.createDirectories(GOLDEN);
        for (String old : recordedFiles()) {
            Files.delete(GOLDEN.resolve(old));
        }
        for (GoldenCrawl.Answer a : answers) {
            Files.writeString(GOLDEN.resolve(a.fileName()), a.recorded(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> recordedFiles() throws IOException {
        if (!Files.isDirectory(GOLDEN)) {
            return List.of();
        }
        try (var files = Files.list(GOLDEN)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static GoldenCrawl.Fetched get(String path) {
        Response r = given().redirects().follow(false).get(path);
        return new GoldenCrawl.Fetched(r.statusCode(), r.contentType(), r.asString());
    }
}
