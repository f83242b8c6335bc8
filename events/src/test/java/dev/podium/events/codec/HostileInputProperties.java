package dev.podium.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.Violation;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Decoding never throws, whatever the bytes, and every rejection names its fields. Inputs come from a seeded generator,
 * so a failing case reproduces; jqwik is not used because its author asks that AI agents not use it.
 */
class HostileInputProperties {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long SEED = 20261129L;
    private final EventCodec codec = new EventCodec(Clock.fixed(SampleEvents.AT, ZoneOffset.UTC));

    /** A field of a sample's JSON tree: the object holding it, its name, and its path as the validator writes it. */
    record Site(EventType type, String path, List<Object> steps) {}

    @Test
    void decodeNeverThrowsForArbitraryBytes() {
        Random random = new Random(SEED);
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = new byte[random.nextInt(513)];
            random.nextBytes(bytes);
            assertWellFormedOutcome(codec.decode(bytes));
        }
    }

    @Test
    void decodeNeverThrowsForCorruptedValidRecords() {
        Random random = new Random(SEED);
        for (int i = 0; i < 1000; i++) {
            byte[] bytes = codec.encode(SampleEvents.of(anyOf(random, EventType.values())));
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            assertWellFormedOutcome(codec.decode(bytes));
        }
    }

    @Test
    void decodeNeverThrowsForTruncatedValidRecords() {
        Random random = new Random(SEED);
        for (int i = 0; i < 1000; i++) {
            byte[] bytes = codec.encode(SampleEvents.of(anyOf(random, EventType.values())));
            Decoded d = codec.decode(java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length)));
            assertWellFormedOutcome(d);
            assertThat(d).isInstanceOf(Decoded.Rejected.class);
        }
    }

    @Test
    void replacingAnyFieldWithAnyJsonValueIsAcceptedOrRejectedWithNamedViolations() {
        Random random = new Random(SEED);
        List<Site> sites = allSites();
        for (int i = 0; i < 3000; i++) {
            Site site = sites.get(random.nextInt(sites.size()));
            ObjectNode root = codec.toTree(SampleEvents.of(site.type()));
            set(root, site.steps(), jsonValue(random, 0));

            Decoded d = codec.decode(bytes(root));

            assertWellFormedOutcome(d);
            if (d instanceof Decoded.Accepted accepted) {
                // Whatever was accepted binds, re-encodes and decodes to the same envelope.
                Envelope e = accepted.envelope();
                assertThat(codec.decode(codec.encode(e))).isInstanceOf(Decoded.Accepted.class);
            }
        }
    }

    @Test
    void removingAnyFieldIsAcceptedOrRejectedNamingThatField() {
        int rejected = 0;
        for (Site site : allSites()) {
            ObjectNode root = codec.toTree(SampleEvents.of(site.type()));
            remove(root, site.steps());
            Decoded d = codec.decode(bytes(root));
            assertWellFormedOutcome(d);
            if (d instanceof Decoded.Rejected r) {
                assertThat(r.violations())
                        .as(site.toString())
                        .extracting(Violation::field)
                        .contains(site.path());
                rejected++;
            }
        }
        assertThat(rejected).isGreaterThan(100);
    }

    // ---- generators: seeded, so that a failure reproduces ----

    private static <T> T anyOf(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    private static final String[] EDGE_STRINGS = {
        "",
        "\u0000",
        "2026-01-15T10:00:00Z",
        "0b7c6a1e-4d6f-4b8e-9a5c-2e1f3d4c5b6a",
        "value",
        "HIGHER_IS_BETTER",
        "run/not-a-uuid",
        "x".repeat(2000),
        "<script>alert(1)</script>",
        "'; DROP TABLE event_store; --"
    };
    private static final double[] EDGE_NUMBERS = {-1.0, 0.0, 1e308, -0.0, Double.MIN_VALUE};

    private static JsonNode jsonValue(Random random, int depth) {
        int kind = random.nextInt(depth < 2 ? 11 : 9);
        return switch (kind) {
            case 0 -> JSON.nullNode();
            case 1 -> JSON.booleanNode(random.nextBoolean());
            case 2 -> JSON.numberNode(random.nextLong());
            case 3 -> JSON.numberNode((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20));
            case 4 -> JSON.numberNode(EDGE_NUMBERS[random.nextInt(EDGE_NUMBERS.length)]);
            case 5 -> JSON.numberNode(new java.math.BigInteger(100, random).negate());
            case 6 -> JSON.textNode(randomString(random, 40));
            case 7, 8 -> JSON.textNode(EDGE_STRINGS[random.nextInt(EDGE_STRINGS.length)]);
            case 9 -> {
                ArrayNode a = JSON.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    a.add(jsonValue(random, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = JSON.objectNode();
                o.set(randomString(random, 8), jsonValue(random, depth + 1));
                yield o;
            }
        };
    }

    private static String randomString(Random random, int maxLength) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(maxLength + 1); i > 0; i--) {
            sb.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x2FFF) : 0x20 + random.nextInt(0x5F));
        }
        return sb.toString();
    }

    // ---- helpers ----

    private void assertWellFormedOutcome(Decoded d) {
        assertThat(d).isNotNull();
        if (d instanceof Decoded.Rejected r) {
            assertThat(r.violations()).isNotEmpty();
            for (Violation v : r.violations()) {
                assertThat(v.field()).isNotBlank();
                assertThat(v.reason()).isNotBlank();
            }
            assertThat(r.reason()).isNotBlank();
        } else {
            Decoded.Accepted a = (Decoded.Accepted) d;
            assertThat(a.envelope()).isNotNull();
            assertThat(a.contentHash()).hasSize(64);
        }
    }

    private byte[] bytes(JsonNode root) {
        try {
            return codec.mapper().writeValueAsBytes(root);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Every object field of every sample, with its path in the validator's notation. */
    private List<Site> allSites() {
        List<Site> sites = new ArrayList<>();
        for (EventType t : EventType.values()) {
            collect(t, codec.toTree(SampleEvents.of(t)), "", new ArrayList<>(), sites);
        }
        return sites;
    }

    private static void collect(EventType t, JsonNode node, String path, List<Object> steps, List<Site> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                List<Object> s = new ArrayList<>(steps);
                s.add(e.getKey());
                out.add(new Site(t, p, List.copyOf(s)));
                collect(t, e.getValue(), p, s, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> s = new ArrayList<>(steps);
                s.add(i);
                collect(t, node.get(i), path + "[" + i + "]", s, out);
            }
        }
    }

    private static JsonNode parent(ObjectNode root, List<Object> steps) {
        JsonNode n = root;
        for (Object step : steps.subList(0, steps.size() - 1)) {
            n = step instanceof Integer i ? n.get(i) : n.get((String) step);
        }
        return n;
    }

    private static void set(ObjectNode root, List<Object> steps, JsonNode value) {
        ((ObjectNode) parent(root, steps)).set((String) steps.get(steps.size() - 1), value);
    }

    private static void remove(ObjectNode root, List<Object> steps) {
        ((ObjectNode) parent(root, steps)).remove((String) steps.get(steps.size() - 1));
    }
}
