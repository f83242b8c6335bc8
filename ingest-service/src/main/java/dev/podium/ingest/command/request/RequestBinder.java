package dev.podium.ingest.command.request;

import com.fasterxml.jackson.core.JsonFactory;
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
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.podium.events.validate.Limits;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Binds an admin request's body, JSON or YAML, to its record with Jackson, and checks it with Bean Validation.
 *
 * <p>Binding is strict: an unknown field, a value of the wrong type, a string where a number belongs or a number where a
 * string belongs (in JSON) is a violation, never ignored or coerced. {@link BodyShape} finds them all on the tree first
 * and takes them out, so that what is left binds and the record's constraints are checked too (but for those on a field
 * already reported): one answer lists every violation.
 */
@ApplicationScoped
public class RequestBinder {

    /** The format of a body, which decides how its scalars bind. */
    public enum Format {
        JSON,
        YAML;

        static Format of(MediaType type) {
            return type != null && type.getSubtype().toLowerCase(Locale.ROOT).contains("yaml") ? YAML : JSON;
        }
    }

    /** A body read as a tree, with the format it came in. A missing node when the body is empty. */
    public record Body(JsonNode tree, Format format) {

        public boolean isEmpty() {
            return tree == null || tree.isMissingNode();
        }

        public Body with(JsonNode other) {
            return new Body(other, format);
        }
    }

    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(Limits.MAX_NESTING_DEPTH)
            .maxStringLength(Limits.MAX_RECORD_BYTES)
            .maxDocumentLength(Limits.MAX_RECORD_BYTES)
            .build();

    private final Validator validator;
    private final ObjectMapper json = strict(JsonMapper.builder(
                    JsonFactory.builder().streamReadConstraints(LIMITS).build()))
            .withCoercionConfig(
                    LogicalType.Textual,
                    c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();
    private final ObjectMapper yaml = strict(YAMLMapper.builder(
                    YAMLFactory.builder().streamReadConstraints(LIMITS).build()))
            .build();

    public RequestBinder(Validator validator) {
        this.validator = validator;
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B strict(B builder) {
        return builder.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // A missing or null number is named by BodyShape; Jackson then binds the 0 of a request that is
                // refused.
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
    }

    /** Reads a body as a tree: YAML for a YAML media type, JSON otherwise; a body that does not parse is a violation. */
    public Body read(InputStream body, MediaType type) {
        Format format = Format.of(type);
        try {
            JsonNode tree = (format == Format.YAML ? yaml : json).readTree(body);
            return new Body(tree == null ? MissingNode.getInstance() : tree, format);
        } catch (IOException e) {
            throw InvalidRequestException.of(FieldViolation.BODY, syntaxProblem(format, e));
        }
    }

    /** Binds a body to {@code type}, with every problem of its shape named; see the class comment. */
    public <T> Binding<T> bind(Body body, Class<T> type) {
        ObjectMapper mapper = body.format() == Format.YAML ? yaml : json;
        JsonNode tree = body.tree().deepCopy();
        BodyShape shape = new BodyShape(mapper.getTypeFactory(), body.format() == Format.YAML);
        if (!shape.fit(tree, mapper.constructType(type), FieldViolation.BODY)) {
            return new Binding<>(null, shape.problems());
        }
        try {
            return new Binding<>(mapper.treeToValue(tree, type), shape.problems());
        } catch (JsonMappingException e) {
            List<FieldViolation> problems = new ArrayList<>(shape.problems());
            problems.add(new FieldViolation(path(e), bindingProblem(e)));
            return new Binding<>(null, problems);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree in memory always reads", e);
        }
    }

    /** The bound value when it has no binding problem and meets its constraints; otherwise every violation, thrown. */
    public <T> T valid(Binding<T> binding) {
        List<FieldViolation> violations = violations(binding);
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        return binding.value();
    }

    /**
     * Every violation of a binding, by field: its problems, and the constraints of what was bound but for those on a
     * field already reported (a value that did not bind is also null, which {@code @NotNull} would report again).
     */
    public List<FieldViolation> violations(Binding<?> binding) {
        List<FieldViolation> out = new ArrayList<>(binding.problems());
        if (binding.value() != null) {
            FieldViolation.all(validator.validate(binding.value())).stream()
                    .filter(v -> binding.problems().stream().noneMatch(p -> p.covers(v.field())))
                    .forEach(out::add);
        }
        out.sort(FieldViolation.BY_FIELD);
        return out;
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            out.append(r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]");
        }
        return field(out);
    }

    private static String field(StringBuilder path) {
        String s = path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
        return s.isEmpty() ? FieldViolation.BODY : s;
    }

    private static String bindingProblem(JsonMappingException e) {
        if (e.getCause() instanceof InputCoercionException) {
            return "is out of range";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "must be " + BodyShape.noun(TypeFactory.defaultInstance().constructType(m.getTargetType()));
        }
        return "cannot be read";
    }

    /**
     * A body that does not parse, said without its text: where it broke, and why when the reason quotes nothing of it
     * (text in quotes is left out, it may be a secret).
     */
    private static String syntaxProblem(Format format, IOException e) {
        if (e instanceof StreamConstraintsException limit) {
            return "over a limit: "
                    + limit.getOriginalMessage().lines().findFirst().orElse("");
        }
        if (e instanceof MismatchedInputException m && m.getOriginalMessage().startsWith("Trailing token")) {
            return "holds more than one " + (format == Format.YAML ? "document" : "value");
        }
        String reason = e instanceof JsonProcessingException j && j.getOriginalMessage() != null
                ? j.getOriginalMessage().lines().findFirst().orElse("")
                : "";
        reason = reason.replaceAll("'[^']*'|\"[^\"]*\"|\\([^)]*\\)", "…");
        String where = e instanceof JsonProcessingException j && j.getLocation() != null
                ? " at line " + j.getLocation().getLineNr() + ", column "
                        + j.getLocation().getColumnNr()
                : "";
        return "not valid " + format.name() + where + (reason.isBlank() ? "" : ": " + reason);
    }
}
