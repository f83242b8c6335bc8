package dev.podium.events.published;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a YAML file of published figures and claims (see {@code events/README.md} and {@code examples/published/}) into
 * {@link PublishedClaim}s, and derives each claim's event id so that importing a file twice appends nothing new.
 *
 * <p>A file names its {@code source} (a slug, the published stream's name), a {@code title}, an optional {@code url},
 * {@code defaults} that every claim inherits ({@code metric}, {@code unit}, {@code direction}, {@code device_count},
 * {@code key}) and a list of {@code claims}. A claim is a <em>figure</em> (no {@code ratio}) or a <em>ratio claim</em>,
 * and states exactly one of {@code value} (a number or {@code n/a}), {@code range} ({@code [low, high]}) or
 * {@code bound} (such as {@code "> 3"}). Every problem is reported with the file, the claim and the field.
 */
public final class ClaimFile {

    /** RFC 4122 name space for URLs, under which claim event ids are derived. */
    public static final UUID URL_NAMESPACE = UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");
    /** Largest claim file read. */
    public static final int MAX_FILE_BYTES = 1024 * 1024;

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");
    private static final Pattern BOUND = Pattern.compile("\\s*(>=|<=|>|<)\\s*([-+0-9.eE]+)\\s*");
    private static final Set<String> FILE_FIELDS = Set.of("source", "title", "url", "defaults", "claims");
    private static final Set<String> DEFAULT_FIELDS = Set.of("metric", "unit", "direction", "device_count", "key");
    private static final Set<String> CLAIM_FIELDS = Set.of(
            "id",
            "quote",
            "device",
            "device_id",
            "device_count",
            "key",
            "metric",
            "unit",
            "direction",
            "value",
            "range",
            "bound",
            "decimals",
            "approximate",
            "ratio");
    private static final Set<String> RATIO_FIELDS = Set.of("baseline", "numerator", "denominator", "form");
    private static final Set<String> KEY_FIELDS = Set.of(
            "benchmark",
            "benchmark_version",
            "scenario",
            "model",
            "precision",
            "per_device_batch_size",
            "total_accelerators",
            "input_size",
            "extra");

    private static final YAMLMapper YAML = YAMLMapper.builder(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private ClaimFile() {}

    // ---- reading ----

    /** Parses one claim file; the file's name appears in every error. */
    public static List<PublishedClaim> parse(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw ClaimFileException.ofFile(
                    file.getFileName().toString(),
                    "file of " + size + " bytes is over the limit of " + MAX_FILE_BYTES + " bytes");
        }
        return parse(file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Parses every {@code *.yaml} and {@code *.yml} file of a folder, in name order; claim ids must be unique per source. */
    public static List<PublishedClaim> parseDirectory(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
        List<PublishedClaim> all = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<Violation> violations = new ArrayList<>();
        Map<String, Path> seen = new HashMap<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            try {
                for (PublishedClaim c : parse(f)) {
                    Path earlier = seen.putIfAbsent(c.source() + "/" + c.claimId(), f);
                    if (earlier != null) {
                        String reason = "also used for source '" + c.source() + "' in " + earlier.getFileName();
                        problems.add(name + ": claim '" + c.claimId() + "': id: " + reason);
                        violations.add(new Violation(name + ": " + claimPath(c.claimId()) + ".id", reason));
                    }
                    all.add(c);
                }
            } catch (ClaimFileException e) {
                problems.addAll(e.problems());
                e.violations().forEach(v -> violations.add(new Violation(name + ": " + v.field(), v.reason())));
            }
        }
        if (!problems.isEmpty()) {
            throw new ClaimFileException(problems, violations);
        }
        return all;
    }

    /** Parses the text of a claim file named {@code fileName}. */
    public static List<PublishedClaim> parse(String fileName, String yaml) {
        if (yaml.length() > MAX_FILE_BYTES) {
            throw ClaimFileException.ofFile(fileName, "over the limit of " + MAX_FILE_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw syntaxError(fileName, yaml, e);
        } catch (IOException | RuntimeException e) {
            String m = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            throw ClaimFileException.ofFile(fileName, "not valid YAML: " + m);
        }
        return new Reader(fileName).read(root);
    }

    private static final Pattern CLAIM_START = Pattern.compile("^\\s*-\\s+id:\\s*[\"']?([^\"'\\s#]+)");
    private static final Pattern FIELD = Pattern.compile("^\\s*(?:-\\s+)?([A-Za-z_]+)\\s*:");

    /**
     * A syntax error with the claim and the field it sits in, found from the line the parser stopped at: the parser
     * itself rejects some values ({@code .inf}, duplicate keys) before a claim exists.
     */
    private static ClaimFileException syntaxError(String fileName, String yaml, JsonProcessingException e) {
        String m = e.getOriginalMessage() == null
                ? e.getClass().getSimpleName()
                : e.getOriginalMessage().lines().findFirst().orElse("");
        int line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
        String[] lines = yaml.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return ClaimFileException.ofFile(fileName, "not valid YAML: " + m);
        }
        String claim = null;
        for (int i = line - 1; i >= 0 && claim == null; i--) {
            Matcher c = CLAIM_START.matcher(lines[i]);
            if (c.find()) {
                claim = c.group(1);
            } else if (lines[i].startsWith("claims:")) {
                break;
            }
        }
        Matcher f = FIELD.matcher(lines[line - 1]);
        String field = f.find() ? f.group(1) : null;
        String reason = "not valid YAML: " + m + " (line " + line + ")";
        String path =
                claim == null ? (field == null ? "$" : field) : claimPath(claim) + (field == null ? "" : "." + field);
        return new ClaimFileException(
                List.of(fileName + (claim == null ? "" : ": claim '" + claim + "'")
                        + (field == null ? "" : ": " + field) + ": " + reason),
                List.of(new Violation(path, reason)));
    }

    /** A claim as a path in its file: by id, {@code claims['gaudi2-workers0']}, or without one by position, {@code claims[2]}. */
    private static String claimPath(String id, int index) {
        return id == null ? "claims[" + index + "]" : claimPath(id);
    }

    private static String claimPath(String id) {
        return "claims['" + id + "']";
    }

    // ---- ids and events ----

    /** The event id of a claim's {@code PublishedClaimImported}: a UUIDv5 of its source and claim id. */
    public static UUID eventId(PublishedClaim claim) {
        return eventId(claim.source(), claim.claimId());
    }

    /** A UUIDv5 (RFC 4122, SHA-1) in {@link #URL_NAMESPACE} of {@code podium:published/<source>/<claimId>}. */
    public static UUID eventId(String source, String claimId) {
        return uuidV5(URL_NAMESPACE, "podium:published/" + source + "/" + claimId);
    }

    /** A name-based UUID, version 5 (SHA-1), as RFC 4122 section 4.3 defines it. */
    public static UUID uuidV5(UUID namespace, String name) {
        byte[] ns = new byte[16];
        long msb = namespace.getMostSignificantBits();
        long lsb = namespace.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            ns[i] = (byte) (msb >>> (8 * (7 - i)));
            ns[8 + i] = (byte) (lsb >>> (8 * (7 - i)));
        }
        byte[] hash;
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(ns);
            hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JVM", e);
        }
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (hash[i] & 0xff);
            lo = (lo << 8) | (hash[8 + i] & 0xff);
        }
        return new UUID(hi, lo);
    }

    /** The event that imports {@code claim} as the {@code seq}-th event of its {@code published/<source>} stream. */
    public static Envelope envelope(PublishedClaim claim, long seq, String actor, Instant at) {
        return new Envelope(
                eventId(claim),
                EventType.PublishedClaimImported,
                Envelope.CURRENT_SCHEMA_VERSION,
                StreamId.published(claim.source()).value(),
                seq,
                null,
                at,
                new PublishedClaimImported(claim, actor));
    }

    // ---- the reader ----

    private static final class Reader {

        private final String file;
        private final List<String> problems = new ArrayList<>();
        private final List<Violation> violations = new ArrayList<>();
        private String where;
        private String claimPath;

        Reader(String file) {
            this.file = file;
            this.where = file;
        }

        List<PublishedClaim> read(JsonNode root) {
            if (root == null || !root.isObject()) {
                throw ClaimFileException.ofFile(file, "must be a mapping with source, title and claims");
            }
            unknown(root, FILE_FIELDS, "");
            String source = text(root, "source", true, Limits.MAX_STRING_CHARS);
            if (source != null && !SLUG.matcher(source).matches()) {
                problem("source", "'" + source + "' is not a slug (lower-case letters, digits, '.', '_', '-')");
            }
            String title = text(root, "title", true, Limits.MAX_STRING_CHARS);
            String url = text(root, "url", false, Limits.MAX_STRING_CHARS);
            JsonNode defaults = root.path("defaults");
            if (!defaults.isMissingNode() && !defaults.isObject()) {
                problem("defaults", "must be a mapping");
                defaults = YAML.createObjectNode();
            } else if (defaults.isObject()) {
                unknown(defaults, DEFAULT_FIELDS, "defaults.");
            }
            JsonNode claims = root.get("claims");
            if (claims == null || !claims.isArray() || claims.isEmpty()) {
                problem("claims", "must be a non-empty list");
                throw new ClaimFileException(problems, violations);
            }
            List<PublishedClaim> out = new ArrayList<>();
            Map<String, JsonNode> byId = new LinkedHashMap<>();
            for (int i = 0; i < claims.size(); i++) {
                JsonNode c = claims.get(i);
                String id = c.path("id").isTextual() ? c.get("id").asText() : null;
                where = file + ": claim " + (id == null ? "#" + (i + 1) : "'" + id + "'");
                claimPath = claimPath(id, i);
                if (!c.isObject()) {
                    problem(null, "must be a mapping");
                    continue;
                }
                if (id != null && byId.put(id, c) != null) {
                    problem("id", "used twice in this file");
                }
                PublishedClaim claim = claim(c, defaults, source, title, url);
                if (claim != null) {
                    out.add(claim);
                }
            }
            checkRatioReferences(out);
            if (!problems.isEmpty()) {
                throw new ClaimFileException(problems, violations);
            }
            return List.copyOf(out);
        }

        private PublishedClaim claim(JsonNode c, JsonNode defaults, String source, String title, String url) {
            int before = problems.size();
            unknown(c, CLAIM_FIELDS, "");
            String id = text(c, "id", true, 128);
            if (id != null && !SLUG.matcher(id).matches()) {
                problem("id", "'" + id + "' is not a slug (lower-case letters, digits, '.', '_', '-')");
            }
            String quote = text(c, "quote", true, Limits.MAX_TEXT_CHARS);
            String deviceLabel = text(c, "device", false, Limits.MAX_STRING_CHARS);
            String deviceId = text(c, "device_id", false, Limits.MAX_STRING_CHARS);
            if (deviceId != null) {
                if (DeviceAliases.byId(deviceId).isEmpty()) {
                    problem("device_id", "'" + deviceId + "' is not a canonical device id");
                }
            } else if (deviceLabel != null) {
                deviceId =
                        DeviceAliases.resolve(deviceLabel).map(DeviceModel::id).orElse(null);
                if (deviceId == null) {
                    problem("device", "'" + deviceLabel + "' is not a known device (see DeviceAliases)");
                }
            }
            Integer deviceCount = integer(c.has("device_count") ? c : defaults, "device_count");
            ComparisonKey key = key(defaults.get("key"), c.get("key"));
            RatioBasis ratio = ratio(c.get("ratio"));
            String metric = inherited(c, defaults, "metric", true);
            String unit = c.has("unit")
                    ? text(c, "unit", true, Limits.MAX_STRING_CHARS)
                    : ratio != null
                            ? (ratio.form() == RatioBasis.RatioForm.TIMES ? "x" : "%")
                            : inherited(c, defaults, "unit", true);
            Direction direction = direction(c.has("direction") ? c : defaults);
            ClaimValue value = value(c);
            Precision precision = precision(c);
            if (problems.size() > before) {
                return null;
            }
            return new PublishedClaim(
                    id,
                    source,
                    title,
                    url,
                    quote,
                    deviceId,
                    deviceLabel,
                    deviceCount,
                    key,
                    metric,
                    unit,
                    direction,
                    value,
                    precision,
                    ratio);
        }

        private ClaimValue value(JsonNode c) {
            List<String> stated =
                    Stream.of("value", "range", "bound").filter(c::has).toList();
            if (stated.size() != 1) {
                problem(
                        "value",
                        stated.isEmpty()
                                ? "missing: state one of value, range or bound"
                                : "states " + String.join(" and ", stated) + ": state only one");
                return null;
            }
            JsonNode v = c.get(stated.get(0));
            switch (stated.get(0)) {
                case "value" -> {
                    if (v.isTextual() && v.asText().trim().equalsIgnoreCase("n/a")) {
                        return new ClaimValue.NotAvailable(null);
                    }
                    Double d = number(v, "value");
                    return d == null ? null : new ClaimValue.Exact(d);
                }
                case "range" -> {
                    if (!v.isArray() || v.size() != 2) {
                        problem("range", "must be a list of two numbers, [low, high]");
                        return null;
                    }
                    Double low = number(v.get(0), "range");
                    Double high = number(v.get(1), "range");
                    if (low == null || high == null) {
                        return null;
                    }
                    if (low > high) {
                        problem("range", "low " + low + " is above high " + high);
                        return null;
                    }
                    return new ClaimValue.Range(low, high);
                }
                default -> {
                    Matcher m = v.isTextual() ? BOUND.matcher(v.asText()) : null;
                    if (m == null || !m.matches()) {
                        problem("bound", "must be an operator and a number, such as \"> 3\"");
                        return null;
                    }
                    double x;
                    try {
                        x = Double.parseDouble(m.group(2));
                    } catch (NumberFormatException e) {
                        problem("bound", "'" + m.group(2) + "' is not a number");
                        return null;
                    }
                    if (!Double.isFinite(x)) {
                        problem("bound", "must be finite, was " + m.group(2));
                        return null;
                    }
                    ClaimValue.BoundOperator op = switch (m.group(1)) {
                        case ">" -> ClaimValue.BoundOperator.GREATER_THAN;
                        case ">=" -> ClaimValue.BoundOperator.AT_LEAST;
                        case "<" -> ClaimValue.BoundOperator.LESS_THAN;
                        default -> ClaimValue.BoundOperator.AT_MOST;
                    };
                    return new ClaimValue.Bound(op, x);
                }
            }
        }

        private Precision precision(JsonNode c) {
            JsonNode d = c.get("decimals");
            JsonNode a = c.get("approximate");
            if (d == null && a == null) {
                return null;
            }
            if (d == null) {
                problem("decimals", "missing: approximate needs the number of decimals stated");
                return null;
            }
            if (!d.isIntegralNumber() || d.asInt() < 0 || d.asInt() > 12) {
                problem("decimals", "must be a whole number from 0 to 12");
                return null;
            }
            if (a != null && !a.isBoolean()) {
                problem("approximate", "must be true or false");
                return null;
            }
            return new Precision(d.asInt(), a != null && a.asBoolean());
        }

        private RatioBasis ratio(JsonNode r) {
            if (r == null || r.isNull()) {
                return null;
            }
            if (!r.isObject()) {
                problem("ratio", "must be a mapping with baseline, form and optionally numerator and denominator");
                return null;
            }
            unknown(r, RATIO_FIELDS, "ratio.");
            String baseline = text(r, "baseline", true, Limits.MAX_STRING_CHARS, "ratio.baseline");
            String numerator = text(r, "numerator", false, 128, "ratio.numerator");
            String denominator = text(r, "denominator", false, 128, "ratio.denominator");
            if ((numerator == null) != (denominator == null)) {
                problem(
                        "ratio",
                        "names " + (numerator == null ? "a denominator" : "a numerator")
                                + " without the other: name both figures or neither");
            }
            String form = text(r, "form", true, 32, "ratio.form");
            RatioBasis.RatioForm f = null;
            if (form != null) {
                try {
                    f = RatioBasis.RatioForm.valueOf(form);
                } catch (IllegalArgumentException e) {
                    problem("ratio.form", "'" + form + "' is not one of TIMES, PERCENT_MORE");
                }
            }
            return baseline == null || f == null ? null : new RatioBasis(baseline, numerator, denominator, f);
        }

        private void checkRatioReferences(List<PublishedClaim> claims) {
            Map<String, PublishedClaim> byId = new HashMap<>();
            claims.forEach(c -> byId.put(c.claimId(), c));
            for (PublishedClaim c : claims) {
                if (c.ratio() == null || c.ratio().numeratorClaimId() == null) {
                    continue;
                }
                where = file + ": claim '" + c.claimId() + "'";
                claimPath = claimPath(c.claimId());
                for (String[] ref : List.of(
                        new String[] {"ratio.numerator", c.ratio().numeratorClaimId()},
                        new String[] {"ratio.denominator", c.ratio().denominatorClaimId()})) {
                    PublishedClaim target = byId.get(ref[1]);
                    if (target == null) {
                        problem(ref[0], "names figure '" + ref[1] + "', which this file does not hold");
                    } else if (target.isRatio()) {
                        problem(ref[0], "names '" + ref[1] + "', which is a ratio claim, not a figure");
                    } else if (!(target.value() instanceof ClaimValue.Exact)) {
                        problem(ref[0], "names '" + ref[1] + "', which states no single value to compute from");
                    }
                }
                if (c.ratio().numeratorClaimId().equals(c.ratio().denominatorClaimId())) {
                    problem("ratio", "numerator and denominator are the same figure");
                }
            }
        }

        private ComparisonKey key(JsonNode defaults, JsonNode own) {
            if ((defaults == null || defaults.isNull()) && (own == null || own.isNull())) {
                return null;
            }
            ObjectNode merged = YAML.createObjectNode();
            for (JsonNode k : new JsonNode[] {defaults, own}) {
                if (k == null || k.isNull()) {
                    continue;
                }
                if (!k.isObject()) {
                    problem("key", "must be a mapping");
                    return null;
                }
                unknown(k, KEY_FIELDS, "key.");
                Iterator<Map.Entry<String, JsonNode>> it = k.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getKey().equals("extra")
                            && merged.has("extra")
                            && e.getValue().isObject()) {
                        ((ObjectNode) merged.get("extra"))
                                .setAll((ObjectNode) e.getValue().deepCopy());
                    } else {
                        merged.set(e.getKey(), e.getValue().deepCopy());
                    }
                }
            }
            String benchmark = text(merged, "benchmark", true, Limits.MAX_STRING_CHARS, "key.benchmark");
            TreeMap<String, String> extra = new TreeMap<>();
            JsonNode ex = merged.get("extra");
            if (ex != null && !ex.isNull()) {
                if (!ex.isObject()) {
                    problem("key.extra", "must be a mapping of parameter names to values");
                } else {
                    ex.fields().forEachRemaining(e -> {
                        if (e.getValue().isNull()) {
                            return; // null drops a parameter inherited from the defaults
                        }
                        if (e.getValue().isValueNode()) {
                            extra.put(e.getKey(), e.getValue().asText());
                        } else {
                            problem("key.extra." + e.getKey(), "must be a single value");
                        }
                    });
                }
            }
            try {
                return benchmark == null
                        ? null
                        : new ComparisonKey(
                                benchmark,
                                text(
                                        merged,
                                        "benchmark_version",
                                        false,
                                        Limits.MAX_STRING_CHARS,
                                        "key.benchmark_version"),
                                text(merged, "scenario", false, Limits.MAX_STRING_CHARS, "key.scenario"),
                                text(merged, "model", false, Limits.MAX_STRING_CHARS, "key.model"),
                                text(merged, "precision", false, Limits.MAX_STRING_CHARS, "key.precision"),
                                integer(merged, "per_device_batch_size", "key."),
                                integer(merged, "total_accelerators", "key."),
                                integer(merged, "input_size", "key."),
                                extra);
            } catch (IllegalArgumentException e) {
                problem("key.extra", e.getMessage());
                return null;
            }
        }

        private Direction direction(JsonNode node) {
            String d = text(node, "direction", true, 32);
            if (d == null) {
                return null;
            }
            try {
                return Direction.valueOf(d);
            } catch (IllegalArgumentException e) {
                problem("direction", "'" + d + "' is not one of HIGHER_IS_BETTER, LOWER_IS_BETTER");
                return null;
            }
        }

        private String inherited(JsonNode c, JsonNode defaults, String field, boolean required) {
            return text(c.has(field) ? c : defaults, field, required, Limits.MAX_STRING_CHARS);
        }

        private Double number(JsonNode v, String field) {
            if (v == null || !v.isNumber()) {
                problem(field, "must be a number" + (v != null && v.isTextual() ? ", was '" + v.asText() + "'" : ""));
                return null;
            }
            double d = v.asDouble();
            if (!Double.isFinite(d)) {
                problem(field, "must be finite, was " + v.asText());
                return null;
            }
            if (d < 0) {
                problem(field, "must not be negative, was " + d);
                return null;
            }
            return d;
        }

        private Integer integer(JsonNode node, String field) {
            return integer(node, field, "");
        }

        private Integer integer(JsonNode node, String field, String prefix) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0) {
                problem(prefix + field, "must be a whole number, 0 or more");
                return null;
            }
            return v.asInt();
        }

        private String text(JsonNode node, String field, boolean required, int limit) {
            return text(node, field, required, limit, field);
        }

        private String text(JsonNode node, String field, boolean required, int limit, String path) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                if (required) {
                    problem(path, "missing");
                }
                return null;
            }
            if (!v.isTextual()) {
                problem(path, "must be text");
                return null;
            }
            String s = v.asText();
            if (s.isBlank()) {
                problem(path, "must not be blank");
                return null;
            }
            if (s.indexOf('\u0000') >= 0) {
                problem(path, "contains the NUL character \\u0000");
                return null;
            }
            if (s.length() > limit) {
                problem(path, "has " + s.length() + " characters, over the limit of " + limit);
                return null;
            }
            return s;
        }

        private void unknown(JsonNode node, Set<String> known, String prefix) {
            Set<String> seen = new HashSet<>();
            node.fieldNames().forEachRemaining(seen::add);
            seen.stream()
                    .filter(n -> !known.contains(n))
                    .sorted()
                    .forEach(n -> problem(
                            prefix + n,
                            "unknown field (known: "
                                    + String.join(", ", known.stream().sorted().toList()) + ")"));
        }

        private void problem(String field, String reason) {
            problems.add(where + (field == null ? "" : ": " + field) + ": " + reason);
            String path =
                    claimPath == null ? (field == null ? "$" : field) : claimPath + (field == null ? "" : "." + field);
            violations.add(new Violation(path, reason));
        }
    }
}
