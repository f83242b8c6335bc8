package dev.podium.events.published;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.bind.Binding;
import dev.podium.events.bind.DocumentBinder;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.published.ClaimFileDocument.Claim;
import dev.podium.events.published.ClaimFileDocument.Defaults;
import dev.podium.events.published.ClaimFileDocument.Key;
import dev.podium.events.validate.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns a bound claim file into {@link PublishedClaim}s: each claim takes what it does not state from the defaults,
 * then the rules between claims are checked (ids unique in the file, ratios naming figures of it). Every problem, those
 * of the records' constraints included, is reported at once by {@link ClaimFileException}.
 */
final class ClaimFileReader {

    private static final Pattern CLAIM = Pattern.compile("claims\\[(\\d+)](?:\\.(.+))?");

    private final String file;
    private final List<Violation> found = new ArrayList<>();

    ClaimFileReader(String file) {
        this.file = file;
    }

    List<PublishedClaim> read(DocumentBinder binder, Binding<ClaimFileDocument> binding) {
        found.addAll(binder.violations(binding));
        ClaimFileDocument doc = binding.value();
        List<Claim> claims = doc == null || doc.claims() == null ? List.of() : doc.claims();
        Defaults defaults = doc == null || doc.defaults() == null ? Defaults.NONE : doc.defaults();
        Map<String, Integer> firstById = new HashMap<>();
        for (int i = 0; i < claims.size(); i++) {
            Claim c = claims.get(i);
            if (c != null) {
                inherited(i, c, defaults);
                if (c.id() != null && firstById.putIfAbsent(c.id(), i) != null) {
                    found.add(new Violation(at(i, "id"), "used twice in this file"));
                }
            }
        }
        found.sort(DocumentBinder.order(ClaimFileDocument.class));
        Map<Integer, PublishedClaim> built = new TreeMap<>();
        for (int i = 0; i < claims.size() && valid("defaults"); i++) {
            if (claims.get(i) != null && valid("claims[" + i + "]")) {
                built.put(i, claim(claims.get(i), defaults, doc));
            }
        }
        checkRatioReferences(built);
        if (!found.isEmpty()) {
            throw exception(claims);
        }
        return List.copyOf(built.values());
    }

    /**
     * A claim's fields that must be stated by it or by the defaults; one the defaults state wrongly is named there once,
     * not again in every claim.
     */
    private void inherited(int i, Claim c, Defaults d) {
        if (first(c.metric(), d.metric()) == null && valid("defaults.metric")) {
            found.add(new Violation(at(i, "metric"), "missing"));
        }
        if (c.unit() == null && c.ratio() == null && d.unit() == null && valid("defaults.unit")) {
            found.add(new Violation(at(i, "unit"), "missing"));
        }
        if (first(c.direction(), d.direction()) == null && valid("defaults.direction")) {
            found.add(new Violation(at(i, "direction"), "missing"));
        }
        if ((c.key() != null || d.key() != null)
                && key(d.key(), c.key()).benchmark() == null
                && valid("defaults.key")) {
            found.add(new Violation(at(i, "key.benchmark"), "missing"));
        }
    }

    private boolean valid(String field) {
        return found.stream().noneMatch(v -> DocumentBinder.covers(field, v.field()));
    }

    private static String at(int claim, String field) {
        return "claims[" + claim + "]." + field;
    }

    private static PublishedClaim claim(Claim c, Defaults d, ClaimFileDocument doc) {
        RatioBasis ratio = c.ratio() == null
                ? null
                : new RatioBasis(
                        c.ratio().baseline(),
                        c.ratio().numerator(),
                        c.ratio().denominator(),
                        RatioBasis.RatioForm.valueOf(c.ratio().form()));
        String unit = c.unit() != null
                ? c.unit()
                : ratio != null ? (ratio.form() == RatioBasis.RatioForm.TIMES ? "x" : "%") : d.unit();
        String deviceId = c.deviceId() != null
                ? c.deviceId()
                : c.device() == null
                        ? null
                        : DeviceAliases.resolve(c.device()).map(DeviceModel::id).orElseThrow();
        Key key = c.key() == null && d.key() == null ? null : key(d.key(), c.key());
        return new PublishedClaim(
                c.id(),
                doc.source(),
                doc.title(),
                doc.url(),
                c.quote(),
                deviceId,
                c.device(),
                first(c.deviceCount(), d.deviceCount()),
                key == null ? null : comparisonKey(key),
                first(c.metric(), d.metric()),
                unit,
                Direction.valueOf(first(c.direction(), d.direction())),
                value(c),
                c.decimals() == null ? null : new Precision(c.decimals(), Boolean.TRUE.equals(c.approximate())),
                ratio);
    }

    private static ClaimValue value(Claim c) {
        if (c.range() != null) {
            return new ClaimValue.Range(c.range().get(0), c.range().get(1));
        }
        if (c.bound() != null) {
            return StatedBound.Validator.parse(c.bound());
        }
        JsonNode v = c.value();
        return Figure.Rule.isNotAvailable(v) ? new ClaimValue.NotAvailable(null) : new ClaimValue.Exact(v.asDouble());
    }

    /** The claim's own key over the defaults' key, field by field; extras merged, an extra set to null dropped. */
    private static Key key(Key base, Key own) {
        Key b = base == null ? Key.NONE : base;
        Key o = own == null ? Key.NONE : own;
        Map<String, String> extra = new TreeMap<>();
        Stream.of(b.extra(), o.extra())
                .filter(Objects::nonNull)
                .forEach(e -> e.forEach((name, value) -> {
                    if (value == null) {
                        extra.remove(name);
                    } else {
                        extra.put(name, value);
                    }
                }));
        return new Key(
                first(o.benchmark(), b.benchmark()),
                first(o.benchmarkVersion(), b.benchmarkVersion()),
                first(o.scenario(), b.scenario()),
                first(o.model(), b.model()),
                first(o.precision(), b.precision()),
                first(o.perDeviceBatchSize(), b.perDeviceBatchSize()),
                first(o.totalAccelerators(), b.totalAccelerators()),
                first(o.inputSize(), b.inputSize()),
                extra);
    }

    private static ComparisonKey comparisonKey(Key k) {
        return new ComparisonKey(
                k.benchmark(),
                k.benchmarkVersion(),
                k.scenario(),
                k.model(),
                k.precision(),
                k.perDeviceBatchSize(),
                k.totalAccelerators(),
                k.inputSize(),
                new TreeMap<>(k.extra()));
    }

    private static <T> T first(T own, T inherited) {
        return own != null ? own : inherited;
    }

    /** Ratios that name figures: each must be a figure of this file with a single value, and not the same twice. */
    private void checkRatioReferences(Map<Integer, PublishedClaim> built) {
        Map<String, PublishedClaim> byId = new HashMap<>();
        built.values().forEach(c -> byId.put(c.claimId(), c));
        built.forEach((i, c) -> {
            if (c.ratio() == null || c.ratio().numeratorClaimId() == null) {
                return;
            }
            String[][] refs = {
                {"ratio.numerator", c.ratio().numeratorClaimId()},
                {"ratio.denominator", c.ratio().denominatorClaimId()}
            };
            for (String[] ref : refs) {
                PublishedClaim target = byId.get(ref[1]);
                if (target == null) {
                    found.add(new Violation(
                            at(i, ref[0]), "names figure '" + ref[1] + "', which this file does not hold"));
                } else if (target.isRatio()) {
                    found.add(new Violation(
                            at(i, ref[0]), "names '" + ref[1] + "', which is a ratio claim, not a figure"));
                } else if (!(target.value() instanceof ClaimValue.Exact)) {
                    found.add(new Violation(
                            at(i, ref[0]), "names '" + ref[1] + "', which states no single value to compute from"));
                }
            }
            if (c.ratio().numeratorClaimId().equals(c.ratio().denominatorClaimId())) {
                found.add(new Violation(at(i, "ratio"), "numerator and denominator are the same figure"));
            }
        });
    }

    /**
     * The problems as {@link ClaimFileException} words them: a claim by its id where it has one ({@code claims['r']}),
     * else by position (index in the path, {@code #n} counted from 1 in the problem's text).
     */
    private ClaimFileException exception(List<Claim> claims) {
        List<String> problems = new ArrayList<>();
        List<Violation> violations = new ArrayList<>();
        for (Violation v : found) {
            Matcher m = CLAIM.matcher(v.field());
            String where = file;
            String field = v.field().equals("$") ? null : v.field();
            String path = v.field();
            if (m.matches()) {
                int i = Integer.parseInt(m.group(1));
                String id = i < claims.size() && claims.get(i) != null
                        ? claims.get(i).id()
                        : null;
                where = file + ": claim " + (id == null ? "#" + (i + 1) : "'" + id + "'");
                field = m.group(2);
                path = ClaimFile.claimPath(id, i) + (field == null ? "" : "." + field);
            }
            problems.add(where + (field == null ? "" : ": " + field) + ": " + v.reason());
            violations.add(new Violation(path, v.reason()));
        }
        return new ClaimFileException(problems, violations);
    }
}
