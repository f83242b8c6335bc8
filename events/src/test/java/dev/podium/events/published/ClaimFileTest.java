package dev.podium.events.published;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Direction;
import dev.podium.events.validate.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaimFileTest {

    static final Path EXAMPLES = Path.of("../examples/published");
    /** A copy of the team's seeds.md (the published figures Podium must hold), kept with the tests. */
    static final Path SEEDS = Path.of("src/test/resources/seeds.md");

    private static List<PublishedClaim> examples() throws IOException {
        return ClaimFile.parseDirectory(EXAMPLES);
    }

    private static Map<String, PublishedClaim> byId(String source) throws IOException {
        return examples().stream()
                .filter(c -> c.source().equals(source))
                .collect(Collectors.toMap(PublishedClaim::claimId, Function.identity()));
    }

    // ---- the example files ----

    @Test
    void everyExampleFileParses() throws IOException {
        List<Path> files;
        try (var s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .containsExactly("hf-habana-bridgetower.yaml", "meta-aitemplate.yaml", "stability-ai-sd3-beluga.yaml");
        for (Path f : files) {
            assertThat(ClaimFile.parse(f)).as(f.toString()).isNotEmpty();
        }
    }

    @Test
    void countsOfFiguresAndClaimsMatchSeeds() throws IOException {
        Map<String, List<PublishedClaim>> bySource =
                examples().stream().collect(Collectors.groupingBy(PublishedClaim::source));
        // seeds.md section 1: a 3 x 4 table (two cells n/a) and nine ratio claims in the text.
        assertCounts(bySource.get("hf-habana-bridgetower"), 12, 2, 9);
        // section 2: 927, 1,254, 3.2 s, 3.6 s, 2.7 s, 116,777, 673, 525; claims 1.5x, > 3x, 28% faster.
        assertCounts(bySource.get("stability-ai-sd3-beluga"), 8, 0, 3);
        // section 3: ResNet-50 and BERT on A100, ResNet-50 and BERT on MI250, tied, 15%, 20%, 80% twice, 2x-3x.
        assertCounts(bySource.get("meta-aitemplate"), 0, 0, 10);
        assertThat(bySource).hasSize(3);
    }

    private static void assertCounts(List<PublishedClaim> claims, int figures, int notAvailable, int ratios) {
        assertThat(claims.stream().filter(c -> !c.isRatio()).count()).isEqualTo(figures);
        assertThat(claims.stream()
                        .filter(c -> c.value() instanceof ClaimValue.NotAvailable)
                        .count())
                .isEqualTo(notAvailable);
        assertThat(claims.stream().filter(PublishedClaim::isRatio).count()).isEqualTo(ratios);
    }

    @Test
    void bridgeTowerTableCellsMatchTheSeedsTable() throws IOException {
        List<String> rows = Files.readAllLines(SEEDS).stream()
                .filter(l -> l.startsWith("| Intel") || l.startsWith("| NVIDIA"))
                .toList();
        assertThat(rows).hasSize(3);
        Map<String, PublishedClaim> claims = byId("hf-habana-bridgetower");
        String[] prefixes = {"gaudi2", "h100", "a100"};
        String[] columns = {"-workers0", "-workers1", "-workers2", "-workers2-mediapipe"};
        int cells = 0;
        for (int r = 0; r < 3; r++) {
            String[] cellText = rows.get(r).split("\\|");
            for (int c = 0; c < 4; c++) {
                String text = cellText[c + 2].trim();
                PublishedClaim figure = claims.get(prefixes[r] + columns[c]);
                assertThat(figure.quote()).isEqualTo(rows.get(r));
                if (text.equals("n/a")) {
                    assertThat(figure.value()).isInstanceOf(ClaimValue.NotAvailable.class);
                } else {
                    assertThat(figure.value()).isEqualTo(new ClaimValue.Exact(Double.parseDouble(text)));
                }
                cells++;
            }
        }
        assertThat(cells).isEqualTo(12);
    }

    @Test
    void everyQuoteIsVerbatimFromSeeds() throws IOException {
        String seeds = Files.readString(SEEDS, StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        for (PublishedClaim c : examples()) {
            assertThat(seeds).as(c.claimId()).contains(c.quote().replaceAll("\\s+", " "));
        }
    }

    @Test
    void bridgeTowerClaimsNameTheirFiguresAndPrecision() throws IOException {
        Map<String, PublishedClaim> c = byId("hf-habana-bridgetower");

        PublishedClaim r179 = c.get("gaudi2-vs-h100-workers0");
        assertThat(r179.value()).isEqualTo(new ClaimValue.Exact(1.79));
        assertThat(r179.precision()).isEqualTo(new Precision(2, false));
        assertThat(r179.ratio())
                .isEqualTo(new RatioBasis(
                        "NVIDIA H100 GPU", "gaudi2-workers0", "h100-workers0", RatioBasis.RatioForm.TIMES));
        assertThat(r179.unit()).isEqualTo("x");

        assertThat(c.get("gaudi2-vs-h100-workers2").precision()).isEqualTo(new Precision(1, false));
        assertThat(c.get("gaudi2-vs-a100-workers0").value()).isEqualTo(new ClaimValue.Exact(2.23));

        PublishedClaim plus3 = c.get("h100-workers2-vs-workers1");
        assertThat(plus3.ratio().form()).isEqualTo(RatioBasis.RatioForm.PERCENT_MORE);
        assertThat(plus3.precision()).isEqualTo(new Precision(0, true));
        assertThat(plus3.value()).isEqualTo(new ClaimValue.Exact(3));
        assertThat(plus3.unit()).isEqualTo("%");

        PublishedClaim plus10 = c.get("gaudi2-mediapipe-vs-best-default");
        assertThat(plus10.ratio().form()).isEqualTo(RatioBasis.RatioForm.PERCENT_MORE);
        assertThat(plus10.precision()).isEqualTo(new Precision(0, false));
        assertThat(value(c, plus10.ratio().numeratorClaimId())).isEqualTo(847.7);
        assertThat(value(c, plus10.ratio().denominatorClaimId())).isEqualTo(768.7);

        PublishedClaim vsA100 = c.get("headline-gaudi2-best-vs-a100-best");
        assertThat(value(c, vsA100.ratio().numeratorClaimId())).isEqualTo(847.7);
        assertThat(value(c, vsA100.ratio().denominatorClaimId())).isEqualTo(345.4);
        PublishedClaim vsH100 = c.get("headline-gaudi2-best-vs-h100-best");
        assertThat(value(c, vsH100.ratio().denominatorClaimId())).isEqualTo(602.1);
        assertThat(vsH100.key().extra()).doesNotContainKeys("dataloader", "dataloader_num_workers");

        assertThat(value(c, c.get("h100-workers1-vs-workers0").ratio().numeratorClaimId()))
                .isEqualTo(580.1);
    }

    private static double value(Map<String, PublishedClaim> claims, String id) {
        return ((ClaimValue.Exact) claims.get(id).value()).value();
    }

    @Test
    void bridgeTowerFiguresCarryTheComparisonKeyAndCanonicalDevices() throws IOException {
        Map<String, PublishedClaim> c = byId("hf-habana-bridgetower");
        PublishedClaim g0 = c.get("gaudi2-workers0");
        assertThat(g0.key().benchmark()).isEqualTo("bridgetower-finetune");
        assertThat(g0.key().model()).isEqualTo("BridgeTower/bridgetower-large-itm-mlm-itc");
        assertThat(g0.key().totalAccelerators()).isEqualTo(8);
        assertThat(g0.key().extra())
                .containsEntry("dataloader_num_workers", "0")
                .containsEntry("dataloader", "default");
        assertThat(g0.metric()).isEqualTo("train_samples_per_second");
        assertThat(g0.unit()).isEqualTo("samples/s");
        assertThat(g0.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(g0.deviceCount()).isEqualTo(8);
        assertThat(c.get("gaudi2-workers2-mediapipe").key().extra()).containsEntry("dataloader", "mediapipe");

        assertThat(c.get("gaudi2-workers0").deviceId()).isEqualTo("intel-gaudi2");
        assertThat(c.get("h100-workers0").deviceId()).isEqualTo("nvidia-h100");
        assertThat(c.get("a100-workers0").deviceId()).isEqualTo("nvidia-a100-80gb");
        assertThat(c.get("a100-workers0").deviceLabel()).isEqualTo("NVIDIA A100 80GB GPU");
        // Same key for the same column on every device, so the comparison page can line them up.
        assertThat(c.get("h100-workers1").key())
                .isEqualTo(c.get("gaudi2-workers1").key());
    }

    @Test
    void stabilityClaimsKeepBoundsAndDirection() throws IOException {
        Map<String, PublishedClaim> c = byId("stability-ai-sd3-beluga");
        assertThat(c.get("sd3-2b-train-gaudi2-vs-a100-256").value())
                .isEqualTo(new ClaimValue.Bound(ClaimValue.BoundOperator.GREATER_THAN, 3));
        assertThat(c.get("sd3-8b-infer-gaudi2").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(c.get("sd3-8b-infer-a100-tensorrt").value()).isEqualTo(new ClaimValue.Exact(2.7));
        assertThat(c.get("sd3-2b-train-gaudi2-batch32").value()).isEqualTo(new ClaimValue.Exact(1254));
        assertThat(c.get("beluga-70b-train-gaudi2-256").value()).isEqualTo(new ClaimValue.Exact(116777));
        PublishedClaim faster = c.get("beluga-70b-infer-gaudi2-vs-a100");
        assertThat(faster.ratio().numeratorClaimId()).isEqualTo("beluga-70b-infer-gaudi2");
        assertThat(faster.ratio().denominatorClaimId()).isEqualTo("beluga-70b-infer-a100-trtllm");
        assertThat(c.get("sd3-2b-train-gaudi2-vs-h100-batch16").ratio().numeratorClaimId())
                .isNull();
    }

    @Test
    void aiTemplateClaimsKeepRangesAndHedges() throws IOException {
        Map<String, PublishedClaim> c = byId("meta-aitemplate");
        assertThat(c.get("a100-resnet50-ait-vs-eager").value()).isEqualTo(new ClaimValue.Range(3, 12));
        assertThat(c.get("mi250-bert-ait-vs-eager").value()).isEqualTo(new ClaimValue.Range(1.5, 2));
        assertThat(c.get("mi250-bert-ait-vs-eager").deviceId()).isEqualTo("amd-mi250");
        assertThat(c.get("a100-vs-mi250-resnet50-ait").value()).isEqualTo(new ClaimValue.Exact(1.0));
        assertThat(c.get("a100-vs-mi250-resnet50-ait").precision().approximate())
                .isTrue();
        assertThat(c.get("a100-vs-mi250-bert-ait").precision()).isEqualTo(new Precision(0, true));
        assertThat(c.get("a100-bert-seq4096-batch1-ait-vs-eager").value()).isEqualTo(new ClaimValue.Exact(80));
        assertThat(c.get("mi250-vs-a100-bert-seq4096-larger-batches").value()).isEqualTo(new ClaimValue.Range(2, 3));
    }

    @Test
    void everyExampleClaimIsAValidEvent() throws IOException {
        EventCodec codec = new EventCodec();
        long seq = 1;
        for (PublishedClaim c : examples()) {
            Envelope e = ClaimFile.envelope(c, seq++, "importer", Instant.parse("2026-01-01T00:00:00Z"));
            Decoded d = codec.decode(codec.encode(e));
            assertThat(d).as(c.claimId() + ": " + d).isInstanceOf(Decoded.Accepted.class);
            assertThat(((Decoded.Accepted) d).envelope()).isEqualTo(e);
        }
    }

    // ---- event ids ----

    @Test
    void uuidV5MatchesTheRfcAlgorithm() {
        UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assertThat(ClaimFile.uuidV5(dns, "python.org"))
                .isEqualTo(UUID.fromString("886313e1-3b8a-5372-9b90-0c9aee199e5d"));
    }

    @Test
    void eventIdsAreVersion5DistinctAndStableAcrossImports() throws IOException {
        List<PublishedClaim> first = examples();
        List<PublishedClaim> second = examples();
        assertThat(second).isEqualTo(first);
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < first.size(); i++) {
            UUID id = ClaimFile.eventId(first.get(i));
            assertThat(id.version()).isEqualTo(5);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(ClaimFile.eventId(second.get(i))).isEqualTo(id);
            assertThat(ids.add(id)).isTrue();
        }
        assertThat(ClaimFile.eventId("hf-habana-bridgetower", "gaudi2-workers0"))
                .isEqualTo(ClaimFile.uuidV5(
                        ClaimFile.URL_NAMESPACE, "podium:published/hf-habana-bridgetower/gaudi2-workers0"))
                .isNotEqualTo(ClaimFile.eventId("hf-habana-bridgetower", "gaudi2-workers1"))
                .isNotEqualTo(ClaimFile.eventId("other-source", "gaudi2-workers0"));
    }

    @Test
    void importingTwiceGivesTheSameBytes() throws IOException {
        EventCodec codec = new EventCodec();
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        PublishedClaim a = examples().get(0);
        PublishedClaim b = examples().get(0);
        assertThat(codec.encode(ClaimFile.envelope(a, 1, "importer", at)))
                .isEqualTo(codec.encode(ClaimFile.envelope(b, 1, "importer", at)));
    }

    // ---- hostile input ----

    private static final String HEAD = """
            source: test-source
            title: Test
            defaults:
              metric: train_samples_per_second
              unit: samples/s
              direction: HIGHER_IS_BETTER
              key: {benchmark: bench}
            claims:
              - id: fig-a
                quote: "a is 10"
                device: Intel Gaudi 2
                value: 10
              - id: fig-b
                quote: "b is 5"
                device: NVIDIA H100 GPU
                value: 5
            """;

    private static List<String> problems(String yaml) {
        try {
            ClaimFile.parse("bad.yaml", yaml);
        } catch (ClaimFileException e) {
            assertThat(e.getMessage()).isEqualTo(String.join("\n", e.problems()));
            return e.problems();
        }
        throw new AssertionError("accepted: " + yaml);
    }

    private static List<String> problemsWithClaim(String claimYaml) {
        return problems(HEAD + claimYaml.indent(2));
    }

    @Test
    void theHostileTestBaseIsValid() {
        assertThat(ClaimFile.parse("ok.yaml", HEAD)).hasSize(2);
        assertThat(ClaimFile.parse("ok.yaml", HEAD + """
                - id: ratio-ok
                  quote: "a is 2x b"
                  ratio: {baseline: b, numerator: fig-a, denominator: fig-b, form: TIMES}
                  value: 2.0
                  decimals: 1
                """.indent(2))).hasSize(3);
    }

    @Test
    void unknownDeviceIsNamed() {
        assertThat(problemsWithClaim("""
                - id: fig-c
                  quote: q
                  device: Cerebras WSE-3
                  value: 1
                """))
                .containsExactly("bad.yaml: claim 'fig-c': device: 'Cerebras WSE-3' is not a known device "
                        + "(see DeviceAliases)");
        assertThat(problemsWithClaim("""
                - id: fig-c
                  quote: q
                  device_id: nvidia-b300
                  value: 1
                """))
                .containsExactly("bad.yaml: claim 'fig-c': device_id: 'nvidia-b300' is not a canonical device id");
    }

    @Test
    void missingQuoteIsNamed() {
        assertThat(problemsWithClaim("""
                - id: fig-c
                  value: 1
                """)).containsExactly("bad.yaml: claim 'fig-c': quote: missing");
    }

    @Test
    void claimWithoutIdIsNamedByPosition() {
        assertThat(problemsWithClaim("""
                - quote: q
                  value: 1
                """)).containsExactly("bad.yaml: claim #3: id: missing");
    }

    @Test
    void rangeWithLowAboveHighIsNamed() {
        assertThat(problemsWithClaim("""
                - id: r
                  quote: q
                  ratio: {baseline: b, form: TIMES}
                  range: [12, 3]
                """)).containsExactly("bad.yaml: claim 'r': range: low 12.0 is above high 3.0");
        assertThat(problemsWithClaim("""
                - id: r
                  quote: q
                  range: [1, 2, 3]
                """))
                .containsExactly("bad.yaml: claim 'r': range: must be a list of two numbers, [low, high]");
    }

    @Test
    void ratioNamingAFigureThatDoesNotExistIsNamed() {
        assertThat(problemsWithClaim("""
                - id: r
                  quote: q
                  ratio: {baseline: b, numerator: fig-a, denominator: fig-z, form: TIMES}
                  value: 2
                """))
                .containsExactly("bad.yaml: claim 'r': ratio.denominator: names figure 'fig-z', which this file "
                        + "does not hold");
    }

    @Test
    void ratioNamingARatioOrOnlyOneFigureIsNamed() {
        assertThat(problemsWithClaim("""
                - id: r1
                  quote: q
                  ratio: {baseline: b, form: TIMES}
                  value: 2
                - id: r2
                  quote: q
                  ratio: {baseline: b, numerator: r1, denominator: fig-b, form: TIMES}
                  value: 2
                - id: r3
                  quote: q
                  ratio: {baseline: b, numerator: fig-a, form: TIMES}
                  value: 2
                """))
                .containsExactly(
                        "bad.yaml: claim 'r3': ratio: names a numerator without the other: name both figures or neither",
                        "bad.yaml: claim 'r2': ratio.numerator: names 'r1', which is a ratio claim, not a figure");
    }

    @Test
    void nonFiniteAndNegativeNumbersAreNamed() {
        for (String bad : List.of(".inf", "-.inf", ".nan", "1.0e+400")) {
            assertThat(problemsWithClaim("""
                    - id: n
                      quote: q
                      value: %s
                    """.formatted(bad)))
                    .as(bad)
                    .singleElement()
                    .asString()
                    .matches("bad\\.yaml: claim 'n': value: (must be finite|not valid YAML: .*\\(line 19\\)).*");
        }
        assertThat(problemsWithClaim("""
                - id: n
                  quote: q
                  value: -3
                """))
                .containsExactly("bad.yaml: claim 'n': value: must not be negative, was -3.0");
        assertThat(problemsWithClaim("""
                - id: n
                  quote: q
                  value: "601.5"
                """)).containsExactly("bad.yaml: claim 'n': value: must be a number, was '601.5'");
        assertThat(problemsWithClaim("""
                - id: n
                  quote: q
                  ratio: {baseline: b, form: TIMES}
                  bound: "> Infinity"
                """))
                .containsExactly("bad.yaml: claim 'n': bound: must be an operator and a number, such as \"> 3\"");
    }

    @Test
    void valueMustBeStatedExactlyOnce() {
        assertThat(problemsWithClaim("""
                - id: v
                  quote: q
                  value: 1
                  range: [1, 2]
                """))
                .containsExactly("bad.yaml: claim 'v': value: states value and range: state only one");
        assertThat(problemsWithClaim("""
                - id: v
                  quote: q
                """))
                .containsExactly("bad.yaml: claim 'v': value: missing: state one of value, range or bound");
    }

    @Test
    void misspelledFieldIsNotIgnored() {
        assertThat(problemsWithClaim("""
                - id: t
                  quote: q
                  value: 1.3
                  decimal: 1
                """))
                .singleElement()
                .asString()
                .startsWith("bad.yaml: claim 't': decimal: unknown field (known: ");
    }

    @Test
    void duplicateIdsAndDuplicateYamlKeysAreRejected() {
        assertThat(problemsWithClaim("""
                - id: fig-a
                  quote: q
                  value: 1
                """)).containsExactly("bad.yaml: claim 'fig-a': id: used twice in this file");
        assertThat(problemsWithClaim("""
                - id: d
                  quote: q
                  value: 1
                  value: 2
                """))
                .singleElement()
                .asString()
                .startsWith("bad.yaml: claim 'd': ")
                .contains("not valid YAML: Duplicate field 'value'");
    }

    @Test
    void malformedOrEmptyFilesAreRejected() {
        assertThat(problems("source: [unclosed"))
                .singleElement()
                .asString()
                .startsWith("bad.yaml: source: not valid YAML: ")
                .endsWith("(line 1)");
        assertThat(problems("")).containsExactly("bad.yaml: must be a mapping with source, title and claims");
        assertThat(problems("- just\n- a list\n"))
                .containsExactly("bad.yaml: must be a mapping with source, title and claims");
        assertThat(problems("source: s\ntitle: t\nclaims: []\n"))
                .containsExactly("bad.yaml: claims: must be a non-empty list");
    }

    @Test
    void sourceMustBeASlugAndTextMustHoldNoNul() {
        assertThat(problems(HEAD.replace("source: test-source", "source: Test Source")))
                .containsExactly(
                        "bad.yaml: source: 'Test Source' is not a slug (lower-case letters, digits, '.', '_', '-')");
        assertThat(problems(HEAD.replace("\"a is 10\"", "\"a \\0 10\"")))
                .containsExactly("bad.yaml: claim 'fig-a': quote: contains the NUL character \\u0000");
    }

    @Test
    void badDirectionFormAndKeyAreNamed() {
        assertThat(problemsWithClaim("""
                - id: k
                  quote: q
                  direction: UP
                  key: {extra: {model: x}}
                  ratio: {baseline: b, form: HALVES}
                  value: 1
                """))
                .containsExactlyInAnyOrder(
                        "bad.yaml: claim 'k': key.extra: extra parameter 'model' has the name of a fixed dimension",
                        "bad.yaml: claim 'k': ratio.form: 'HALVES' is not one of TIMES, PERCENT_MORE",
                        "bad.yaml: claim 'k': direction: 'UP' is not one of HIGHER_IS_BETTER, LOWER_IS_BETTER");
    }

    @Test
    void everyProblemOfAFileIsReportedAtOnce() {
        assertThat(problemsWithClaim("""
                - id: x1
                  quote: q
                  device: Unobtainium 9000
                  value: 1
                - id: x2
                  value: -1
                """)).hasSize(3);
    }

    @Test
    void everyProblemAlsoNamesItsFieldAsAPathInTheFile() {
        ClaimFileException e = catchThrowableOfType(
                ClaimFileException.class,
                () -> ClaimFile.parse(
                        "bad.yaml", HEAD.replace("source: test-source", "source: Test Source") + """
                        - id: r
                          quote: q
                          ratio: {baseline: b, form: TIMES}
                          range: [12, 3]
                        - value: 1
                        """.indent(2)));
        assertThat(e.violations())
                .containsExactly(
                        new Violation(
                                "source", "'Test Source' is not a slug (lower-case letters, digits, '.', '_', '-')"),
                        new Violation("claims['r'].range", "low 12.0 is above high 3.0"),
                        new Violation("claims[3].id", "missing"),
                        new Violation("claims[3].quote", "missing"));
        assertThat(e.problems()).hasSameSizeAs(e.violations());
        ClaimFileException syntax =
                catchThrowableOfType(ClaimFileException.class, () -> ClaimFile.parse("bad.yaml", "source: [unclosed"));
        assertThat(syntax.violations())
                .singleElement()
                .satisfies(v -> assertThat(v.field()).isEqualTo("source"));
    }

    @Test
    void problemsOfEveryKindAndLevelAreListedAtOnceEachWithItsPath() {
        ClaimFileException e = catchThrowableOfType(ClaimFileException.class, () -> ClaimFile.parse("bad.yaml", """
                source: test-source
                title: 5
                colour: red
                defaults:
                  metric: [m]
                  unit: samples/s
                  direction: UP
                  shade: blue
                claims:
                  - id: a
                    quote: q
                    device: Intel Gaudi 2
                    value: 1
                    ratio: {baseline: b, form: TIMES, weight: 2}
                  - id: b
                    quote: 7
                    device: Intel Gaudi 2
                    key: [x]
                    value: {v: 1}
                    decimals: 1.5
                  - "not a claim"
                  - id: c
                    quote: q
                    key: {benchmark: k, flavour: x}
                    ratio: [1]
                    range: [1]
                """));
        assertThat(e.violations())
                .extracting(Violation::field)
                .containsExactly(
                        "colour",
                        "title",
                        "defaults.shade",
                        "defaults.metric",
                        "defaults.direction",
                        "claims['a'].ratio.weight",
                        "claims['b'].quote",
                        "claims['b'].key",
                        "claims['b'].value",
                        "claims['b'].decimals",
                        "claims[2]",
                        "claims['c'].key.flavour",
                        "claims['c'].range",
                        "claims['c'].ratio");
        assertThat(e.problems())
                .contains(
                        "bad.yaml: colour: unknown field (known: claims, defaults, source, title, url)",
                        "bad.yaml: title: must be a string",
                        "bad.yaml: defaults.metric: must be a string",
                        "bad.yaml: defaults.direction: 'UP' is not one of HIGHER_IS_BETTER, LOWER_IS_BETTER",
                        "bad.yaml: claim 'a': ratio.weight: unknown field (known: baseline, denominator, form, numerator)",
                        "bad.yaml: claim 'b': quote: must be a string",
                        "bad.yaml: claim 'b': key: must be a mapping",
                        "bad.yaml: claim 'b': value: must be a number",
                        "bad.yaml: claim 'b': decimals: must be a whole number",
                        "bad.yaml: claim #3: must be a mapping",
                        "bad.yaml: claim 'c': range: must be a list of two numbers, [low, high]",
                        "bad.yaml: claim 'c': ratio: must be a mapping");
    }

    @Test
    void aClaimMissingWhatTheDefaultsDoNotGiveIsNamed() {
        assertThat(problems("""
                source: s
                title: t
                claims:
                  - id: a
                    quote: q
                    key: {model: m}
                    value: 1
                """))
                .containsExactly(
                        "bad.yaml: claim 'a': key.benchmark: missing",
                        "bad.yaml: claim 'a': metric: missing",
                        "bad.yaml: claim 'a': unit: missing",
                        "bad.yaml: claim 'a': direction: missing");
    }

    @Test
    void aHugeQuoteIsNamedWithItsLength() {
        assertThat(problemsWithClaim("""
                - id: n
                  quote: "%s"
                  value: 1
                """.formatted("x".repeat(20_000))))
                .containsExactly("bad.yaml: claim 'n': quote: has 20000 characters, over the limit of 16384");
    }

    @Test
    void deepNestingIsRefusedAsNotValidYaml() {
        assertThat(problemsWithClaim("""
                - id: n
                  quote: q
                  key: {extra: {x: %s}}
                  value: 1
                """.formatted("[".repeat(40) + "]".repeat(40))))
                .singleElement()
                .asString()
                .startsWith("bad.yaml: ")
                .contains("not valid YAML: Document nesting depth (33) exceeds the maximum allowed (32");
    }

    @Test
    void anAliasBombIsRefusedAtOnce() {
        StringBuilder bomb = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append("a%d: &a%d [%s]\n".formatted(i, i, String.join(", ", Collections.nCopies(9, "*a" + (i - 1)))));
        }
        assertThat(problems(bomb + HEAD))
                .singleElement()
                .asString()
                .startsWith("bad.yaml: not valid YAML: YAML aliases are not supported (*a0)")
                .hasSizeLessThan(200);
    }

    @Test
    void documentsWithoutAMappingAreRejected() {
        for (String empty : List.of("---\n", "# only a comment\n", "~\n", "42\n")) {
            assertThat(problems(empty))
                    .as(empty)
                    .containsExactly("bad.yaml: must be a mapping with source, title and claims");
        }
    }

    @Test
    void oversizedFileIsRejected(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, HEAD + "#" + "x".repeat(ClaimFile.MAX_FILE_BYTES));
        assertThatThrownBy(() -> ClaimFile.parse(big))
                .isInstanceOf(ClaimFileException.class)
                .hasMessageStartingWith("big.yaml: file of");
    }

    @Test
    void sameIdInTwoFilesOfOneSourceIsRejected(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.yaml"), HEAD);
        Files.writeString(dir.resolve("b.yml"), HEAD);
        assertThatThrownBy(() -> ClaimFile.parseDirectory(dir))
                .isInstanceOf(ClaimFileException.class)
                .hasMessageContaining("b.yml: claim 'fig-a': id: also used for source 'test-source' in a.yaml");
    }
}
