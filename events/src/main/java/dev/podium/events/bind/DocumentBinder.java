package dev.podium.events.bind;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.podium.events.validate.Violation;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.hibernate.validator.HibernateValidator;

/**
 * Binds a JSON or YAML document to a record with Jackson and checks it with Bean Validation, reporting every violation
 * at once, each with its path as the document writes it ({@code claims[2].ratio.baseline}, {@code matrix.workers},
 * {@code $} for the document itself).
 *
 * <p>Binding is strict: an unknown field, a value of the wrong type, a string where a number belongs (or, but where
 * {@link DocumentShape.Rules#scalarsAreText} allows it, a number where a string belongs) is a violation, never ignored
 * or coerced. {@link DocumentShape} finds them all on the tree first and takes them out, so that what is left binds and
 * the record's constraints are checked too, but for those on a field already reported. A YAML alias is refused: Jackson
 * reads {@code *name} as the text "name", never as the anchored value, so an alias bomb costs nothing but would be
 * misread.
 */
public final class DocumentBinder {

    /** The format of a document, which decides its parser and how its scalars bind. */
    public enum Format {
        JSON,
        YAML
    }

    private final Format format;
    private final ObjectMapper mapper;
    private final DocumentShape.Rules rules;
    /** Null for {@link #validator()}, which is then built on first use, not when a class holding a binder loads. */
    private final Validator validator;

    public DocumentBinder(Format format, StreamReadConstraints limits, DocumentShape.Rules rules, Validator validator) {
        this.format = format;
        this.rules = rules;
        this.validator = validator;
        this.mapper = format == Format.YAML
                ? strict(YAMLMapper.builder(YAMLFactory.builder()
                                .streamReadConstraints(limits)
                                .build()))
                        .build()
                : strict(JsonMapper.builder(JsonFactory.builder()
                                .streamReadConstraints(limits)
                                .build()))
                        .withCoercionConfig(
                                LogicalType.Textual,
                                c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                        .build();
    }

    /** A binder of YAML files that people write, checked by {@link #validator()}. */
    public static DocumentBinder yamlFiles(StreamReadConstraints limits, boolean scalarsAreText) {
        return new DocumentBinder(Format.YAML, limits, new DocumentShape.Rules(scalarsAreText, true), null);
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B strict(B builder) {
        return builder.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // A missing or null number is named by DocumentShape; Jackson then binds the 0 of a document that
                // is refused.
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
    }

    /** The validator of documents outside a container: Hibernate Validator, messages in English. */
    public static Validator validator() {
        return Factory.VALIDATOR;
    }

    /** Built on first use, and once: a factory is costly and holds no state of a document. */
    private static final class Factory {
        // The provider is named, not looked up, so that a shaded jar or a container's class loader cannot hide it.
        static final Validator VALIDATOR = Validation.byProvider(HibernateValidator.class)
                .providerResolver(() -> List.of(new HibernateValidator()))
                .configure()
                .defaultLocale(Locale.ROOT)
                .buildValidatorFactory()
                .getValidator();
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /**
     * Reads a document as a tree, a missing node when it is empty. Text that does not parse, goes over a limit or
     * holds a YAML alias throws, with one violation at {@code $} and the parser's exception as the cause.
     */
    public JsonNode read(String text) {
        try {
            if (format == Format.YAML) {
                refuseAliases(text);
            }
            JsonNode tree = mapper.readTree(text);
            return tree == null ? MissingNode.getInstance() : tree;
        } catch (IOException | RuntimeException e) {
            throw new DocumentException(List.of(new Violation(DocumentShape.ROOT, syntaxProblem(e))), e);
        }
    }

    private void refuseAliases(String text) throws IOException {
        try (JsonParser p = mapper.createParser(text)) {
            while (p.nextToken() != null) {
                if (p instanceof YAMLParser y && y.isCurrentAlias()) {
                    throw new JsonParseException(
                            p, "YAML aliases are not supported (*" + p.getText() + "): write the value out");
                }
            }
        }
    }

    /** Why a document did not parse, with the line where it broke. */
    private String syntaxProblem(Exception e) {
        String reason = e instanceof JsonProcessingException j && j.getOriginalMessage() != null
                ? j.getOriginalMessage()
                : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        reason = reason.lines().findFirst().orElse("");
        if (e instanceof StreamConstraintsException) {
            return "over a limit: " + reason;
        }
        String line = e instanceof JsonProcessingException j && j.getLocation() != null
                ? " (line " + j.getLocation().getLineNr() + ")"
                : "";
        return "not valid " + format.name() + ": " + reason + line;
    }

    /** Binds a tree to {@code type}, with every problem of its shape named; see the class comment. */
    public <T> Binding<T> bind(JsonNode tree, Class<T> type) {
        JsonNode copy = tree.deepCopy();
        DocumentShape shape = new DocumentShape(mapper.getTypeFactory(), rules);
        if (!shape.fit(copy, mapper.constructType(type), DocumentShape.ROOT)) {
            return new Binding<>(null, shape.problems());
        }
        try {
            return new Binding<>(mapper.treeToValue(copy, type), shape.problems());
        } catch (JsonMappingException e) {
            List<Violation> problems = new ArrayList<>(shape.problems());
            problems.add(new Violation(path(e), bindingProblem(shape, e)));
            return new Binding<>(null, problems);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree in memory always reads", e);
        }
    }

    /**
     * Every violation of a binding, in the order of the record's components: its problems, and the constraints of what
     * was bound but for those on a field already reported (a value that did not bind is also null, which
     * {@code @NotNull} would report again).
     */
    public List<Violation> violations(Binding<?> binding) {
        List<Violation> out = new ArrayList<>(binding.problems());
        if (binding.value() != null) {
            (validator == null ? validator() : validator)
                    .validate(binding.value()).stream()
                            .map(DocumentBinder::violation)
                            .filter(v -> binding.problems().stream().noneMatch(p -> covers(p.field(), v.field())))
                            .distinct()
                            .forEach(out::add);
            out.sort(new DocumentOrder(binding.value().getClass()));
        }
        return out;
    }

    /** The order of {@link #violations}, for a caller that adds violations of its own: see {@link DocumentOrder}. */
    public static Comparator<Violation> order(Class<?> root) {
        return new DocumentOrder(root);
    }

    /** Reads, binds and checks a document: the valid value, or a {@link DocumentException} with every violation. */
    public <T> T parse(String text, Class<T> type) {
        Binding<T> binding = bind(read(text), type);
        List<Violation> violations = violations(binding);
        if (!violations.isEmpty()) {
            throw new DocumentException(violations, null);
        }
        return binding.value();
    }

    /** True when {@code field} names {@code other} or a field inside it. */
    public static boolean covers(String field, String other) {
        return other.equals(field) || other.startsWith(field + ".") || other.startsWith(field + "[");
    }

    /** A Bean Validation violation with its field named as the document names it; see {@link #field(Path)}. */
    public static Violation violation(ConstraintViolation<?> violation) {
        return new Violation(field(violation.getPropertyPath()), violation.getMessage());
    }

    /**
     * A Bean Validation path as the document names it: Java names in snake_case, list indexes and map keys as written
     * ({@code pools[1]}, {@code secrets.HF_TOKEN}); the method and parameter of a validated call are left out.
     */
    public static String field(Path path) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : path) {
            if (node.getKind() == ElementKind.METHOD
                    || node.getKind() == ElementKind.PARAMETER
                    || node.getKind() == ElementKind.CONSTRUCTOR
                    || node.getKind() == ElementKind.CROSS_PARAMETER) {
                continue;
            }
            if (node.isInIterable()) {
                if (node.getIndex() != null) {
                    field.append('[').append(node.getIndex()).append(']');
                } else if (node.getKey() != null) {
                    field.append('.').append(node.getKey());
                }
            }
            if (node.getKind() == ElementKind.PROPERTY) {
                field.append('.').append(DocumentOrder.SNAKE.translate(node.getName()));
            }
        }
        String name = field.length() > 0 && field.charAt(0) == '.' ? field.substring(1) : field.toString();
        return name.isEmpty() ? DocumentShape.ROOT : name;
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            out.append(r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]");
        }
        String s = out.length() > 0 && out.charAt(0) == '.' ? out.substring(1) : out.toString();
        return s.isEmpty() ? DocumentShape.ROOT : s;
    }

    private String bindingProblem(DocumentShape shape, JsonMappingException e) {
        if (e.getCause() instanceof InputCoercionException) {
            return "is out of range";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "must be " + shape.noun(mapper.constructType(m.getTargetType()));
        }
        return "cannot be read";
    }
}
