package dev.podium.events.published;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.bind.DocumentBinder;
import dev.podium.events.bind.DocumentException;
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
import java.util.List;
import java.util.Map;
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

    /** Strict YAML: a claim file states text as strings (but for a key's extra parameters). */
    private static final DocumentBinder BINDER = DocumentBinder.yamlFiles(
            StreamReadConstraints.builder()
                    .maxNestingDepth(Limits.MAX_NESTING_DEPTH)
                    .maxStringLength(MAX_FILE_BYTES)
                    .maxDocumentLength(MAX_FILE_BYTES)
                    .build(),
            false);

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
            root = BINDER.read(yaml);
        } catch (DocumentException e) {
            throw e.getCause() instanceof JsonProcessingException j
                    ? syntaxError(fileName, yaml, j)
                    : ClaimFileException.ofFile(fileName, e.violations().get(0).reason());
        }
        if (!root.isObject()) {
            throw ClaimFileException.ofFile(fileName, "must be a mapping with source, title and claims");
        }
        return new ClaimFileReader(fileName).read(BINDER, BINDER.bind(root, ClaimFileDocument.class));
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
    static String claimPath(String id, int index) {
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
}
