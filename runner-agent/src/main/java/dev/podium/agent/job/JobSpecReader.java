package dev.podium.agent.job;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.agent.parse.RegexTemplate;
import dev.podium.events.bind.Binding;
import dev.podium.events.bind.DocumentBinder;
import dev.podium.events.bind.DocumentException;
import dev.podium.events.model.Direction;
import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a job spec from YAML into a {@link JobSpecDocument} and checks it with its constraints, so that a bad spec fails
 * before anything runs with every problem listed, each naming its field. The format is documented in the module README
 * and examples/jobs/. A YAML scalar is text where text belongs ({@code workers: 2} is the parameter "2"), as in a
 * campaign's YAML spec.
 */
public final class JobSpecReader {

    /** Largest spec read: a spec goes into a JobRequested, which is one record. */
    public static final int MAX_CHARS = Limits.MAX_RECORD_BYTES;

    private static final DocumentBinder BINDER = DocumentBinder.yamlFiles(
            StreamReadConstraints.builder()
                    .maxNestingDepth(Limits.MAX_NESTING_DEPTH)
                    .maxStringLength(MAX_CHARS)
                    .maxDocumentLength(MAX_CHARS)
                    .build(),
            true);

    public JobDefinition read(String text) {
        if (text.length() > MAX_CHARS) {
            throw new JobSpecException(
                    JobSpecException.FILE, "has " + text.length() + " characters, over the limit of " + MAX_CHARS);
        }
        JsonNode root;
        try {
            root = BINDER.read(text);
        } catch (DocumentException e) {
            throw new JobSpecException(e.violations());
        }
        if (!root.isObject()) {
            throw new JobSpecException(
                    JobSpecException.FILE, "must be a YAML mapping of fields such as benchmark, adapter, matrix");
        }
        Binding<JobSpecDocument> binding = BINDER.bind(withPatternShorthand((ObjectNode) root), JobSpecDocument.class);
        List<Violation> violations = BINDER.violations(binding);
        if (!violations.isEmpty()) {
            throw new JobSpecException(violations);
        }
        return definition(binding.value());
    }

    /** {@code regex: {name: "pattern"}} as {@code regex: {name: {pattern: "pattern"}}}. */
    private static JsonNode withPatternShorthand(ObjectNode root) {
        if (root.get("regex") instanceof ObjectNode regex) {
            List<String> names = new ArrayList<>();
            regex.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (regex.get(name).isTextual()) {
                    regex.putObject(name).put("pattern", regex.get(name).asText());
                }
            }
        }
        return root;
    }

    private static JobDefinition definition(JobSpecDocument d) {
        JobSpec spec = new JobSpec(
                d.benchmark().strip(),
                d.adapterOrDefault(),
                d.command() == null ? null : CommandArguments.Validator.arguments(d.command()),
                d.parserOrDefault(),
                orEmpty(d.parameters()),
                d.matrix() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(d.matrix()),
                d.repetitions() == null ? 3 : d.repetitions(),
                d.warmupStepsOrDefault(),
                d.timeoutSeconds() == null ? 3600 : d.timeoutSeconds(),
                orEmpty(d.environment()),
                d.nodes() == null ? 1 : d.nodes(),
                d.devicesPerNode() == null ? 1 : d.devicesPerNode(),
                strip(d.pool()),
                strip(d.warmup()),
                d.adaptiveOrNull());
        return new JobDefinition(spec, strip(d.version()), strip(d.scenario()), strip(d.model()), templates(d));
    }

    private static List<RegexTemplate> templates(JobSpecDocument d) {
        List<RegexTemplate> out = new ArrayList<>();
        if (d.regex() != null) {
            d.regex()
                    .forEach((name, t) -> out.add(new RegexTemplate(
                            name,
                            Pattern.compile(t.pattern()),
                            t.unit() == null ? "1" : t.unit(),
                            "lower".equals(t.direction()) ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER,
                            t.aggregate() == null ? "last" : t.aggregate())));
        }
        return out;
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
    }

    private static String strip(String s) {
        return s == null ? null : s.strip();
    }
}
