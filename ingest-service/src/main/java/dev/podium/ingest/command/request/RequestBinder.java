package dev.podium.ingest.command.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.podium.events.bind.Binding;
import dev.podium.events.bind.DocumentBinder;
import dev.podium.events.bind.DocumentShape;
import dev.podium.events.validate.Limits;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;

/**
 * Binds an admin request's body, JSON or YAML, to its record with Jackson, and checks it with Bean Validation.
 *
 * <p>Binding is strict: an unknown field, a value of the wrong type, a string where a number belongs or a number where a
 * string belongs (in JSON) is a violation, never ignored or coerced. {@link DocumentShape} finds them all on the tree first
 * and takes them out, so that what is left binds and the record's constraints are checked too (but for those on a field
 * already reported): one answer lists every violation. The binding is {@link DocumentBinder}'s, as for the files of
 * {@code events} and the agent; reading a body is this class's, with errors that never quote the body (it may hold a
 * secret).
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

    private final DocumentBinder json;
    private final DocumentBinder yaml;

    public RequestBinder(Validator validator) {
        this.json = new DocumentBinder(
                DocumentBinder.Format.JSON, LIMITS, new DocumentShape.Rules(false, false), validator);
        this.yaml =
                new DocumentBinder(DocumentBinder.Format.YAML, LIMITS, new DocumentShape.Rules(true, false), validator);
    }

    private DocumentBinder binder(Format format) {
        return format == Format.YAML ? yaml : json;
    }

    /** Reads a body as a tree: YAML for a YAML media type, JSON otherwise; a body that does not parse is a violation. */
    public Body read(InputStream body, MediaType type) {
        Format format = Format.of(type);
        try {
            JsonNode tree = binder(format).mapper().readTree(body);
            return new Body(tree == null ? MissingNode.getInstance() : tree, format);
        } catch (IOException e) {
            throw InvalidRequestException.of(FieldViolation.BODY, syntaxProblem(format, e));
        }
    }

    /** Binds a body to {@code type}, with every problem of its shape named; see the class comment. */
    public <T> Binding<T> bind(Body body, Class<T> type) {
        return binder(body.format()).bind(body.tree(), type);
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
        return json.violations(binding).stream()
                .map(v -> new FieldViolation(v.field(), v.reason()))
                .sorted(FieldViolation.BY_FIELD)
                .toList();
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
