package dev.podium.query.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * All markup of query-service is in its templates, and Qute escapes every value: no main class uses {@code RawString}
 * (ArchUnit, on the compiled classes), and no string literal of the main sources holds a tag (a scan of the sources:
 * ArchUnit does not see literals).
 */
class NoMarkupInJavaTest {

    private static final Path MAIN = Path.of("src/main/java");

    /** {@code <} followed by a tag name, or {@code </}: an opening or closing tag. */
    static final Pattern TAG = Pattern.compile("<(/|[A-Za-z][A-Za-z0-9-]*[\\s>/])");

    @Test
    void noMainClassUsesRawString() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.podium.query");

        noClasses()
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.quarkus.qute.RawString")
                .because("Qute escapes every value; markup belongs in templates")
                .check(classes);
    }

    @Test
    void noStringLiteralOfTheMainSourcesHoldsATag() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String literal : JavaLiterals.of(Files.readString(f))) {
                    if (TAG.matcher(literal).find()) {
                        found.add(MAIN.relativize(f) + ": " + literal);
                    }
                }
            }
        }
        assertThat(found).as("string literals with markup").isEmpty();
    }

    @Test
    void theScanFindsTagsInStringsAndTextBlocksButNotInCommentsOrComparisons() {
        String source = """
                class X {
                    // "<b>in a comment</b>"
                    /** {@code "<p>"} */
                    String a = "<td class=\\"num\\">";
                    String b = \"\"\"
                        </tr>
                        \"\"\";
                    char c = '<';
                    boolean d = 1 < 2;
                    String e = "a < b, List<String> is no tag? it is";
                    String f = "n < 3";
                }
                """;

        List<String> literals = JavaLiterals.of(source);

        assertThat(literals).hasSize(4);
        assertThat(literals.stream().filter(l -> TAG.matcher(l).find()))
                .containsExactly(
                        "<td class=\\\"num\\\">", "\n        </tr>\n        ", "a < b, List<String> is no tag? it is");
    }
}
