package dev.podium.events.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.testing.SampleEvents;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The committed schema files are exactly what {@link SchemaWriter} produces, and the samples validate against them with an
 * independent JSON Schema validator. Run with {@code -Dpodium.schemas.write=true} to regenerate the files.
 */
class SchemaFilesTest {

    private static final Path DIR = Path.of("src/main/resources", SchemaWriter.RESOURCE_DIR);
    private static final EventCodec CODEC = new EventCodec();

    @BeforeAll
    static void regenerateWhenAsked() throws IOException {
        if (Boolean.getBoolean("podium.schemas.write")) {
            SchemaWriter.writeAll(DIR);
        }
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void committedFileIsWhatTheGeneratorWrites(EventType type) throws IOException {
        Path file = DIR.resolve(SchemaWriter.fileName(type));
        assertThat(file)
                .as("missing: regenerate with -Dpodium.schemas.write=true")
                .exists();
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .as("%s differs from SchemaWriter's output: regenerate with -Dpodium.schemas.write=true", file)
                .isEqualTo(SchemaWriter.render(type));
    }

    @Test
    void folderHoldsOneFilePerTypeAndNothingElse() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(Stream.of(EventType.values())
                            .map(SchemaWriter::fileName)
                            .toList());
        }
    }

    @Test
    void schemasAreOnTheClassPath() throws IOException {
        for (EventType type : EventType.values()) {
            try (InputStream in = getClass()
                    .getClassLoader()
                    .getResourceAsStream(SchemaWriter.RESOURCE_DIR + "/" + SchemaWriter.fileName(type))) {
                assertThat(in).as(type.name()).isNotNull();
            }
        }
    }

    @Test
    void schemaStatesTheRulesOfTheRecords() {
        ObjectNode s = SchemaWriter.schema(EventType.RunCompleted);
        assertThat(s.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(s.get("required"))
                .extracting(JsonNode::asText)
                .contains(
                        "event_id", "type", "schema_version", "stream_id", "seq", "agent_id", "occurred_at", "payload");
        JsonNode metric = s.at("/$defs/Metric");
        assertThat(metric.at("/properties/values/type").toString()).isEqualTo("[\"array\",\"null\"]");
        assertThat(metric.at("/properties/values/maxItems").asInt()).isEqualTo(10_000);
        assertThat(metric.at("/properties/values/items/minimum").asInt()).isZero();
        assertThat(metric.at("/properties/direction/enum"))
                .extracting(JsonNode::asText)
                .containsExactly("HIGHER_IS_BETTER", "LOWER_IS_BETTER");
        assertThat(metric.at("/properties/name/maxLength").asInt()).isEqualTo(1024);
        assertThat(metric.at("/properties/name/pattern").asText()).isEqualTo("^[^\\u0000]*$");

        ObjectNode claim = SchemaWriter.schema(EventType.PublishedClaimImported);
        assertThat(claim.at("/$defs/ClaimValue/oneOf")).hasSize(4);
        assertThat(claim.at("/$defs/ClaimValueRange/properties/kind/const").asText())
                .isEqualTo("range");
        assertThat(claim.at("/$defs/PublishedClaim/properties/quote/maxLength").asInt())
                .isEqualTo(16 * 1024);
        assertThat(claim.at("/$defs/ComparisonKey/properties/extra/maxProperties")
                        .asInt())
                .isEqualTo(256);
        assertThat(claim.get("required")).extracting(JsonNode::asText).doesNotContain("agent_id");
    }

    // ---- an independent validator ----

    private static JsonSchema load(EventType type) throws IOException {
        SchemaValidatorsConfig config =
                SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(Files.readString(DIR.resolve(SchemaWriter.fileName(type))), config);
    }

    @Test
    void everySampleValidatesAgainstItsSchemaFile() throws IOException {
        for (Envelope sample : SampleEvents.all()) {
            JsonNode json = CODEC.mapper().readTree(CODEC.encode(sample));
            Set<ValidationMessage> errors = load(sample.type()).validate(json);
            assertThat(errors).as(sample.type().name()).isEmpty();
        }
    }

    private static Set<ValidationMessage> validateMutated(EventType type, Consumer<ObjectNode> mutation)
            throws IOException {
        ObjectNode root = CODEC.toTree(SampleEvents.of(type));
        mutation.accept(root);
        return load(type).validate(root);
    }

    @Test
    void schemaFilesRejectWhatTheValidatorRejects() throws IOException {
        List<Consumer<ObjectNode>> breakages = List.of(
                r -> r.remove("event_id"),
                r -> r.remove("agent_id"),
                r -> r.put("type", "RunFailed"),
                r -> r.put("schema_version", 2),
                r -> r.put("seq", 0),
                r -> r.put("stream_id", "job/" + SampleEvents.JOB_ID),
                r -> r.put("event_id", "not-a-uuid"),
                r -> ((ObjectNode) r.get("payload")).remove("metrics"),
                r -> ((ObjectNode) r.get("payload")).put("duration_seconds", -1.0),
                r -> ((ArrayNode) r.at("/payload/metrics/0/values")).set(0, -601.1),
                r -> ((ObjectNode) r.at("/payload/metrics/0")).put("name", "a\u0000b"),
                r -> ((ObjectNode) r.at("/payload/metrics/0")).put("name", "n".repeat(1025)),
                r -> ((ObjectNode) r.at("/payload/metrics/0")).put("scope", "GALAXY"));
        for (int i = 0; i < breakages.size(); i++) {
            assertThat(validateMutated(EventType.RunCompleted, breakages.get(i)))
                    .as("breakage %d", i)
                    .isNotEmpty();
        }
    }

    @Test
    void claimValueOneOfAcceptsEachKindAndRejectsAnUnknownOne() throws IOException {
        for (String value : List.of(
                "{\"kind\":\"range\",\"low\":3,\"high\":12}",
                "{\"kind\":\"n/a\"}",
                "{\"kind\":\"bound\",\"operator\":\"GREATER_THAN\",\"value\":3}")) {
            JsonNode v = CODEC.mapper().readTree(value);
            assertThat(validateMutated(
                            EventType.PublishedClaimImported,
                            r -> ((ObjectNode) r.at("/payload/claim")).set("value", v)))
                    .as(value)
                    .isEmpty();
        }
        assertThat(validateMutated(
                        EventType.PublishedClaimImported,
                        r -> ((ObjectNode) r.at("/payload/claim/value")).put("kind", "guess")))
                .isNotEmpty();
        assertThat(validateMutated(
                        EventType.PublishedClaimImported,
                        r -> ((ObjectNode) r.at("/payload/claim/value")).remove("value")))
                .isNotEmpty();
    }
}
