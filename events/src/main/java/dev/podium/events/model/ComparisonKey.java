package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * What must be equal for two results to be ranked against each other. A comparison varies one dimension (the device, a
 * software version or one of these fields) and holds the rest fixed; results with different keys are never ranked together.
 * {@code inputSize} is the sequence length or image size; {@code extra} holds the benchmark's declared extra parameters,
 * such as {@code dataloader_num_workers}. Null fields mean "not stated" and are part of the key as such.
 */
public record ComparisonKey(
        String benchmark,
        @Nullable String benchmarkVersion,
        @Nullable String scenario,
        @Nullable String model,
        @Nullable String precision,
        @Nullable @NonNegative Integer perDeviceBatchSize,
        @Nullable @NonNegative Integer totalAccelerators,
        @Nullable @NonNegative Integer inputSize,
        @Nullable SortedMap<String, String> extra) {

    public static final String BENCHMARK = "benchmark";
    public static final String BENCHMARK_VERSION = "benchmark_version";
    public static final String SCENARIO = "scenario";
    public static final String MODEL = "model";
    public static final String PRECISION = "precision";
    public static final String BATCH_SIZE = "per_device_batch_size";
    public static final String TOTAL_ACCELERATORS = "total_accelerators";
    public static final String INPUT_SIZE = "input_size";

    /** The fixed dimensions by name; an extra parameter may not take one of these names. */
    public static final List<String> FIXED_DIMENSIONS = List.of(
            BENCHMARK, BENCHMARK_VERSION, SCENARIO, MODEL, PRECISION, BATCH_SIZE, TOTAL_ACCELERATORS, INPUT_SIZE);

    public ComparisonKey {
        Objects.requireNonNull(benchmark, "benchmark");
        // A copy in natural order, whatever the comparator of the map given: the canonical text depends on it.
        TreeMap<String, String> copy = new TreeMap<>();
        if (extra != null) {
            copy.putAll(extra);
        }
        extra = Collections.unmodifiableSortedMap(copy);
        for (String name : extra.keySet()) {
            if (FIXED_DIMENSIONS.contains(name)) {
                throw new IllegalArgumentException("extra parameter '" + name + "' has the name of a fixed dimension");
            }
        }
    }

    /** Every dimension by name, fixed fields first, then the extra parameters in name order. */
    public Map<String, String> dimensions() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(BENCHMARK, benchmark);
        d.put(BENCHMARK_VERSION, benchmarkVersion);
        d.put(SCENARIO, scenario);
        d.put(MODEL, model);
        d.put(PRECISION, precision);
        d.put(BATCH_SIZE, perDeviceBatchSize == null ? null : perDeviceBatchSize.toString());
        d.put(TOTAL_ACCELERATORS, totalAccelerators == null ? null : totalAccelerators.toString());
        d.put(INPUT_SIZE, inputSize == null ? null : inputSize.toString());
        extra.forEach(d::put);
        return d;
    }

    /**
     * The canonical text of the key, e.g. {@code benchmark=bridgetower;...;dataloader_num_workers=0}. Absent values are
     * written as {@code -} (a value that is itself {@code -} as {@code %2D}); names and values are percent-escaped so that
     * no value can imitate a separator or an absent value.
     */
    public String canonical() {
        StringBuilder sb = new StringBuilder();
        dimensions().forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append(';');
            }
            sb.append(escape(k)).append('=').append(v == null ? "-" : escape(v));
        });
        return sb.toString();
    }

    /**
     * What a person reads for this key, e.g. {@code bridgetower-large-itm-mlm-itc · 8 accelerators · workers 2 · mediapipe}:
     * the stated values in dimension order, each with the word that says what it is, the benchmark left out (pages show
     * it beside the key). Unlike {@link #canonical()} it is not injective; pages link it to the exact key.
     */
    public String label() {
        StringJoiner out = new StringJoiner(" \u00b7 ");
        if (model != null) {
            out.add(model.substring(model.lastIndexOf('/') + 1));
        }
        if (benchmarkVersion != null) {
            out.add("version " + benchmarkVersion);
        }
        if (scenario != null) {
            out.add(scenario);
        }
        if (precision != null) {
            out.add(precision);
        }
        if (perDeviceBatchSize != null) {
            out.add("batch " + perDeviceBatchSize);
        }
        if (totalAccelerators != null) {
            out.add(totalAccelerators + (totalAccelerators == 1 ? " accelerator" : " accelerators"));
        }
        if (inputSize != null) {
            out.add("input " + inputSize);
        }
        extra.forEach((name, value) -> out.add(extraLabel(name, value)));
        return out.length() == 0 ? benchmark : out.toString();
    }

    /** An extra parameter as a label shows it: the dataloader by its value, its workers as "workers N", others as "name value". */
    private static String extraLabel(String name, String value) {
        return switch (name) {
            case "dataloader" -> value;
            case "dataloader_num_workers" -> "workers " + value;
            default -> name.replace('_', ' ') + " " + value;
        };
    }

    /** The canonical text with one dimension left out: the group within which that dimension varies. */
    public String canonicalWithout(String dimension) {
        return withoutDimension(dimension).canonical();
    }

    /** A short stable id (SHA-256 of the canonical text, 16 hex digits) for URLs and indexes. */
    public String id() {
        return shortHash(canonical());
    }

    /** This key with one dimension cleared, so results that differ only there share it. */
    public ComparisonKey withoutDimension(String dimension) {
        SortedMap<String, String> e = new TreeMap<>(extra);
        e.remove(dimension);
        return new ComparisonKey(
                benchmark,
                BENCHMARK_VERSION.equals(dimension) ? null : benchmarkVersion,
                SCENARIO.equals(dimension) ? null : scenario,
                MODEL.equals(dimension) ? null : model,
                PRECISION.equals(dimension) ? null : precision,
                BATCH_SIZE.equals(dimension) ? null : perDeviceBatchSize,
                TOTAL_ACCELERATORS.equals(dimension) ? null : totalAccelerators,
                INPUT_SIZE.equals(dimension) ? null : inputSize,
                e);
    }

    /** The value of one dimension, or null when not stated; unlike {@link #dimensions()}, builds no map. */
    public String valueOf(String dimension) {
        if (dimension == null) {
            return null;
        }
        return switch (dimension) {
            case BENCHMARK -> benchmark;
            case BENCHMARK_VERSION -> benchmarkVersion;
            case SCENARIO -> scenario;
            case MODEL -> model;
            case PRECISION -> precision;
            case BATCH_SIZE -> perDeviceBatchSize == null ? null : perDeviceBatchSize.toString();
            case TOTAL_ACCELERATORS -> totalAccelerators == null ? null : totalAccelerators.toString();
            case INPUT_SIZE -> inputSize == null ? null : inputSize.toString();
            default -> extra.get(dimension);
        };
    }

    public static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    private static String escape(String s) {
        if (s.equals("-")) {
            return "%2D";
        }
        return s.replace("%", "%25").replace(";", "%3B").replace("=", "%3D");
    }
}
