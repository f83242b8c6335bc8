package dev.podium.events.codec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.EventType;
import dev.podium.events.validate.DeviceReadings;
import dev.podium.events.validate.EnvelopeValidator;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.ServerStatistics;
import dev.podium.events.validate.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Encodes envelopes to JSON (UTF-8, snake_case) and decodes untrusted bytes back, validating them first so that every
 * violation is named. Thread-safe.
 */
public final class EventCodec {

    private final ObjectMapper mapper;
    private final EnvelopeValidator validator;
    private final Clock clock;

    public EventCodec() {
        this(Clock.systemUTC());
    }

    public EventCodec(Clock clock) {
        this.mapper = newMapper();
        this.validator = new EnvelopeValidator();
        this.clock = clock;
    }

    /** The mapper Podium uses for events everywhere: snake_case, ISO-8601 instants, nulls left out, no NaN. */
    public static ObjectMapper newMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .build();
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(Limits.MAX_NESTING_DEPTH)
                        .maxStringLength(Limits.MAX_RECORD_BYTES)
                        .build());
        return mapper;
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /** The exact bytes a writer publishes and signs. Deterministic: the same envelope always gives the same bytes. */
    public byte[] encode(Envelope envelope) {
        try {
            return mapper.writeValueAsBytes(toTree(envelope));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode " + envelope.type() + ": " + e.getOriginalMessage(), e);
        }
    }

    public ObjectNode toTree(Envelope envelope) {
        ObjectNode root = mapper.createObjectNode();
        root.put("event_id", envelope.eventId().toString());
        root.put("type", envelope.type().name());
        root.put("schema_version", envelope.schemaVersion());
        root.put("stream_id", envelope.streamId());
        root.put("seq", envelope.seq());
        if (envelope.agentId() != null) {
            root.put("agent_id", envelope.agentId());
        }
        root.put("occurred_at", envelope.occurredAt().toString());
        root.set("payload", mapper.valueToTree(envelope.payload()));
        return root;
    }

    /**
     * Decodes and validates untrusted bytes. Never throws for bad input: a record that is not JSON, breaks a rule or does
     * not bind gives {@link Decoded.Rejected} with every violation found.
     */
    public Decoded decode(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Decoded.rejected(new Violation("$", "empty record"));
        }
        if (bytes.length > Limits.MAX_RECORD_BYTES) {
            return Decoded.rejected(new Violation(
                    "$",
                    "record of " + bytes.length + " bytes is over the limit of " + Limits.MAX_RECORD_BYTES + " bytes"));
        }
        if (!isUtf8(bytes)) {
            return Decoded.rejected(
                    new Violation("$", "not UTF-8 (records are JSON in UTF-8, without a byte order mark)"));
        }
        JsonNode root;
        try {
            root = mapper.readTree(bytes);
        } catch (IOException | RuntimeException e) {
            // StreamConstraintsException (too deep, too long a number) is a JsonProcessingException, hence an
            // IOException.
            return Decoded.rejected(new Violation("$", "malformed JSON: " + firstLine(e)));
        }
        List<Violation> violations;
        try {
            violations = validator.validate(root, Instant.now(clock));
        } catch (RuntimeException e) {
            return Decoded.rejected(new Violation("$", "cannot be validated: " + firstLine(e)));
        }
        if (!violations.isEmpty()) {
            return new Decoded.Rejected(violations);
        }
        Envelope envelope;
        try {
            envelope = fromValidTree(root);
        } catch (RuntimeException | IOException e) {
            return Decoded.rejected(new Violation("payload", "does not bind: " + firstLine(e)));
        }
        List<Violation> figures = new ArrayList<>(ServerStatistics.violations(envelope));
        figures.addAll(DeviceReadings.violations(envelope));
        if (!figures.isEmpty()) {
            return new Decoded.Rejected(figures);
        }
        return new Decoded.Accepted(envelope, contentHash(bytes));
    }

    /** Decodes a record that is known to be valid, such as a row of the event store. */
    public Envelope decodeTrusted(byte[] bytes) {
        try {
            return fromValidTree(mapper.readTree(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Binds a stored payload (for instance a jsonb column) of a known type. */
    public Event payloadFromJson(EventType type, String json) {
        try {
            return mapper.readValue(json, type.payloadType());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "stored " + type + " payload does not bind: " + e.getOriginalMessage(), e);
        }
    }

    /** SHA-256 of the record bytes, hex: equal hashes mean a redelivery, unequal ones a conflict. */
    public static String contentHash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    private Envelope fromValidTree(JsonNode root) throws IOException {
        EventType type = EventType.byName(root.get("type").asText())
                .orElseThrow(() -> new IllegalArgumentException("unknown type"));
        JsonNode agent = root.get("agent_id");
        Event payload = mapper.treeToValue(
                Upcaster.upcast(type, root.get("schema_version").asInt(), root.get("payload")), type.payloadType());
        return new Envelope(
                UUID.fromString(root.get("event_id").asText()),
                type,
                root.get("schema_version").asInt(),
                root.get("stream_id").asText(),
                root.get("seq").asLong(),
                agent == null || agent.isNull() ? null : agent.asText(),
                Instant.parse(root.get("occurred_at").asText()),
                payload);
    }

    private static String firstLine(Exception e) {
        String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        String line = m.lines().findFirst().orElse(m);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    /** Strict UTF-8 and no byte order mark: Jackson alone would also read UTF-16 and UTF-32 and skip a BOM. */
    private static boolean isUtf8(byte[] bytes) {
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            return false;
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    public static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
