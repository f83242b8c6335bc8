package dev.podium.events.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.podium.events.validate.Violation;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a hand-written document becomes a record: strictly, with every problem named by its path, in document order. */
class DocumentBinderTest {

    private static final StreamReadConstraints LIMITS =
            StreamReadConstraints.builder().maxNestingDepth(8).build();
    private static final DocumentBinder STRICT = DocumentBinder.yamlFiles(LIMITS, false);
    private static final DocumentBinder SCALARS_AS_TEXT = DocumentBinder.yamlFiles(LIMITS, true);

    @CrossField
    record Doc(
            @NotNull(message = "missing") @Size(max = 5) String name,
            @Min(1) Integer count,
            List<@NotNull @Valid Part> parts,
            @AnyScalarAsText Map<String, String> tags,
            Map<String, @Valid Part> named)
            implements CrossField.Checked {

        @Override
        public void check(CrossField.Report report) {
            if (tags != null && tags.containsKey("forbidden")) {
                report.add("tags", "forbidden", "is a reserved tag");
            }
            if ("none".equals(name) && count != null) {
                report.add(null, "a count needs a name");
            }
        }
    }

    record Part(
            @NotNull(message = "missing") String id,
            @OneOf({"a", "b"}) String kind) {}

    private static List<Violation> violations(DocumentBinder binder, String yaml) {
        return binder.violations(binder.bind(binder.read(yaml), Doc.class));
    }

    private static Violation v(String field, String reason) {
        return new Violation(field, reason);
    }

    @Test
    void everyProblemIsListedWithItsPathInTheOrderOfTheRecord() {
        assertThat(violations(STRICT, """
                named: {p: {id: 3}}
                parts:
                  - {id: x, kind: c, extra: 1}
                  - 5
                  - {kind: a}
                count: 0
                colour: red
                name: [1]
                tags: {forbidden: yes}
                """))
                .containsExactly(
                        v("colour", "unknown field (known: count, name, named, parts, tags)"),
                        v("name", "must be a string"),
                        v("count", "must be greater than or equal to 1"),
                        v("parts[0].extra", "unknown field (known: id, kind)"),
                        v("parts[0].kind", "must be one of a, b, was 'c'"),
                        v("parts[1]", "must be a mapping"),
                        v("parts[2].id", "missing"),
                        v("tags.forbidden", "is a reserved tag"),
                        v("named.p.id", "must be a string"));
    }

    @Test
    void aRuleOfTheRecordAsAWholeIsAtItsPath() {
        assertThat(violations(STRICT, "name: none\ncount: 2\n")).containsExactly(v("$", "a count needs a name"));
    }

    @Test
    void aYamlScalarIsTextOnlyWhereTheRulesOrTheComponentSaySo() {
        assertThat(violations(STRICT, "name: 5\ntags: {a: 1, b: true, c: 2.5}\n"))
                .containsExactly(v("name", "must be a string"));
        Binding<Doc> strict = STRICT.bind(STRICT.read("name: n\ntags: {a: 1, b: true, c: 2.5}\n"), Doc.class);
        assertThat(strict.value().tags())
                .containsExactly(Map.entry("a", "1"), Map.entry("b", "true"), Map.entry("c", "2.5"));
        assertThat(violations(SCALARS_AS_TEXT, "name: 5\n")).isEmpty();
        assertThat(violations(SCALARS_AS_TEXT, "name: n\ncount: '3'\n"))
                .containsExactly(v("count", "must be a whole number"));
        assertThat(violations(SCALARS_AS_TEXT, "name: n\ncount: 99999999999\n"))
                .containsExactly(v("count", "is out of range"));
    }

    @Test
    void wrongKindsOfValueAreNamedAndTheirInsidesAreNotReadFurther() {
        assertThat(violations(STRICT, "name: n\nparts: {id: x}\nnamed: [a]\ntags: [a]\n"))
                .containsExactly(
                        v("parts", "must be a list"), v("tags", "must be a mapping"), v("named", "must be a mapping"));
    }

    @Test
    void aYamlAliasIsRefusedWithWhereItIs() {
        DocumentException e =
                catchThrowableOfType(DocumentException.class, () -> STRICT.read("a: &x [1, 2]\nname: *x\n"));
        assertThat(e.violations())
                .containsExactly(
                        v("$", "not valid YAML: YAML aliases are not supported (*x): write the value out (line 2)"));
    }

    @Test
    void anAliasBombIsRefusedWithoutBeingExpanded() {
        StringBuilder bomb = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append("a%d: &a%d [%s]\n".formatted(i, i, String.join(", ", Collections.nCopies(9, "*a" + (i - 1)))));
        }
        DocumentException e = catchThrowableOfType(DocumentException.class, () -> STRICT.read(bomb.toString()));
        assertThat(e.violations())
                .singleElement()
                .satisfies(v -> assertThat(v.reason()).contains("YAML aliases are not supported (*a0)"));
    }

    @Test
    void deepNestingIsRefusedAsOverALimit() {
        DocumentException e = catchThrowableOfType(
                DocumentException.class, () -> STRICT.read("name: " + "[".repeat(50) + "]".repeat(50) + "\n"));
        assertThat(e.violations())
                .singleElement()
                .satisfies(v -> assertThat(v.reason()).startsWith("over a limit: Document nesting depth (9)"));
    }

    @Test
    void aStringOverItsSizeIsNamedWithTheLimit() {
        assertThat(violations(STRICT, "name: " + "x".repeat(100_000) + "\n"))
                .containsExactly(v("name", "size must be between 0 and 5"));
    }

    @Test
    void anEmptyDocumentIsAMissingNodeThatIsNotTheRecord() {
        assertThat(STRICT.read("")).isEqualTo(MissingNode.getInstance());
        assertThat(STRICT.read("# nothing here\n")).isEqualTo(MissingNode.getInstance());
        assertThat(violations(STRICT, "")).containsExactly(v("$", "must be a mapping"));
        assertThat(violations(STRICT, "- a list\n")).containsExactly(v("$", "must be a mapping"));
    }

    @Test
    void parseGivesTheValueOrThrowsEveryViolation() {
        assertThat(STRICT.parse("name: n\ncount: 2\n", Doc.class).count()).isEqualTo(2);
        DocumentException e =
                catchThrowableOfType(DocumentException.class, () -> STRICT.parse("count: 0\n", Doc.class));
        assertThat(e.violations())
                .containsExactly(v("name", "missing"), v("count", "must be greater than or equal to 1"));
    }

    @Test
    void aMessageTakesTheValueAsTextNeverAsAnExpression() {
        assertThat(violations(STRICT, "name: n\nparts: [{id: x, kind: '${1+1}{max}'}]\n"))
                .containsExactly(v("parts[0].kind", "must be one of a, b, was '${1+1}{max}'"));
        assertThat(ConstraintMessages.literal("a {b} $c \\d")).isEqualTo("a \\{b\\} \\$c \\\\d");
    }
}
