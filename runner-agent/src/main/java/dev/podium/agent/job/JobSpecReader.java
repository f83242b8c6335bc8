package dev.podium.agent.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.podium.agent.parse.Parsers;
import dev.podium.agent.parse.RegexTemplate;
import dev.podium.agent.workload.Adapter;
import dev.podium.agent.workload.ExternalCommand;
import dev.podium.events.model.Direction;
import dev.podium.events.model.JobSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a job spec from YAML and checks every field, so that a bad spec fails before anything runs with an error that
 * names the field. The format is documented in the module README and examples/jobs/.
 */
public final class JobSpecReader {

    private static final Set<String> FIELDS = Set.of(
            "benchmark",
            "version",
            "scenario",
            "model",
            "adapter",
            "command",
            "parser",
            "parameters",
            "matrix",
            "repetitions",
            "warmup_steps",
            "timeout_seconds",
            "environment",
            "nodes",
            "devices_per_node",
            "pool",
            "regex",
            "warmup");
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final int MAX_POINTS = 256;

    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());

    public JobDefinition read(String text) {
        JsonNode root;
        try {
            root = yaml.readTree(text);
        } catch (Exception e) {
            throw new JobSpecException(
                    "(file)",
                    "not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new JobSpecException("(file)", "must be a YAML mapping of fields such as benchmark, adapter, matrix");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new JobSpecException(f, "unknown field; known fields are " + new TreeSet<>(FIELDS));
            }
        }
        String benchmark = requiredString(root, "benchmark");
        if (!NAME.matcher(benchmark).matches()) {
            throw new JobSpecException(
                    "benchmark", "must start with a letter and use letters, digits, '_', '.', '-' (at most 64)");
        }
        String adapter = optionalString(root, "adapter", "reference");
        if (!Adapter.NAMES.contains(adapter)) {
            throw new JobSpecException(
                    "adapter", "must be one of " + new TreeSet<>(Adapter.NAMES) + ", was '" + adapter + "'");
        }
        boolean shipped = !adapter.equals(ExternalCommand.NAME);
        List<String> command = command(root.get("command"));
        if (!shipped && command == null) {
            throw new JobSpecException("command", "required when adapter is 'command'");
        }
        if (shipped && command != null) {
            throw new JobSpecException(
                    "command", "not allowed with adapter '" + adapter + "' (the agent ships that command)");
        }
        Map<String, String> parameters = scalarMap(root, "parameters");
        Map<String, List<String>> matrix = matrix(root);
        List<RegexTemplate> templates = regex(root);
        String parser = optionalString(root, "parser", shipped ? "jsonl" : null);
        if (parser == null) {
            parser = templates.isEmpty() ? "auto" : "regex";
        }
        if (!parser.equals("regex") && Parsers.byFormat(parser).isEmpty()) {
            throw new JobSpecException(
                    "parser", "unknown format '" + parser + "'; use one of " + Parsers.FORMATS + ", auto or regex");
        }
        if (parser.equals("regex") && templates.isEmpty()) {
            throw new JobSpecException("regex", "parser 'regex' needs at least one template");
        }
        int repetitions = integer(root, "repetitions", 3, 1, 100);
        int warmup = integer(root, "warmup_steps", shipped ? 2 : 0, 0, 1_000_000);
        int timeout = integer(root, "timeout_seconds", 3600, 1, 7 * 24 * 3600);
        int nodes = integer(root, "nodes", 1, 1, 100_000);
        int devices = integer(root, "devices_per_node", 1, 0, 1024);
        Map<String, String> env = scalarMap(root, "environment");
        for (String k : env.keySet()) {
            if (!ENV_NAME.matcher(k).matches()) {
                throw new JobSpecException("environment." + k, "is not a valid environment variable name");
            }
        }
        String pool = optionalString(root, "pool", null);
        String warmupHandling = warmupHandling(root, adapter, warmup);
        JobSpec spec = new JobSpec(
                benchmark,
                adapter,
                command,
                parser,
                parameters,
                matrix,
                repetitions,
                warmup,
                timeout,
                env,
                nodes,
                devices,
                pool,
                warmupHandling);
        JobDefinition def = new JobDefinition(
                spec,
                optionalString(root, "version", null),
                optionalString(root, "scenario", null),
                optionalString(root, "model", null),
                templates);
        if (def.points().size() > MAX_POINTS) {
            throw new JobSpecException(
                    "matrix", "expands to " + def.points().size() + " runs, more than " + MAX_POINTS);
        }
        return def;
    }

    /**
     * {@code warmup}: how a command's figures leave out its warm-up, {@code excluded-by-tool} (declared) or
     * {@code from-step-log} (the agent skips {@code warmup_steps} steps of the tool's per-step log, so it needs one or more).
     */
    private static String warmupHandling(JsonNode root, String adapter, int warmupSteps) {
        String w = optionalString(root, "warmup", null);
        if (w == null) {
            return null;
        }
        if (adapter.equals("reference")) {
            throw new JobSpecException(
                    "warmup", "only for adapter 'command' (the reference workload reports its warm-up steps)");
        }
        if (!w.equals(JobSpec.WARMUP_DECLARED) && !w.equals(JobSpec.WARMUP_VERIFIED)) {
            throw new JobSpecException(
                    "warmup",
                    "must be '" + JobSpec.WARMUP_DECLARED + "' or '" + JobSpec.WARMUP_VERIFIED + "', was '" + w + "'");
        }
        if (w.equals(JobSpec.WARMUP_VERIFIED) && warmupSteps < 1) {
            throw new JobSpecException(
                    "warmup_steps",
                    "must be 1 or more with warmup '" + JobSpec.WARMUP_VERIFIED
                            + "' (the steps of the tool's log the agent leaves out)");
        }
        return w;
    }

    private static String requiredString(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            throw new JobSpecException(field, "required");
        }
        if (!n.isValueNode() || n.asText().isBlank()) {
            throw new JobSpecException(field, "must be a non-empty string");
        }
        return n.asText().strip();
    }

    private static String optionalString(JsonNode root, String field, String dflt) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isValueNode() || n.asText().isBlank()) {
            throw new JobSpecException(field, "must be a non-empty string");
        }
        return n.asText().strip();
    }

    private static int integer(JsonNode root, String field, int dflt, int min, int max) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new JobSpecException(field, "must be a whole number, was '" + n.asText() + "'");
        }
        int v = n.asInt();
        if (v < min || v > max) {
            throw new JobSpecException(field, "must be between " + min + " and " + max + ", was " + v);
        }
        return v;
    }

    private static Map<String, String> scalarMap(JsonNode root, String field) {
        JsonNode n = root.get(field);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new JobSpecException(field, "must be a mapping of names to values");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new JobSpecException(
                        field + "." + e.getKey(), "must be a single value (string, number or boolean)");
            }
            if (!field.equals("environment") && !NAME.matcher(e.getKey()).matches()) {
                throw new JobSpecException(field + "." + e.getKey(), "is not a valid parameter name");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static Map<String, List<String>> matrix(JsonNode root) {
        JsonNode n = root.get("matrix");
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new JobSpecException(
                    "matrix", "must map parameter names to lists of values, e.g. dataloader_num_workers: [0, 1, 2]");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String f = "matrix." + e.getKey();
            if (!NAME.matcher(e.getKey()).matches()) {
                throw new JobSpecException(f, "is not a valid parameter name");
            }
            if (!e.getValue().isArray() || e.getValue().isEmpty()) {
                throw new JobSpecException(f, "must be a non-empty list of values");
            }
            List<String> values = new ArrayList<>();
            for (JsonNode v : e.getValue()) {
                if (!v.isValueNode() || v.isNull()) {
                    throw new JobSpecException(f, "values must be strings, numbers or booleans");
                }
                if (values.contains(v.asText())) {
                    throw new JobSpecException(f, "lists '" + v.asText() + "' twice");
                }
                values.add(v.asText());
            }
            out.put(e.getKey(), values);
        }
        return out;
    }

    private static List<String> command(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (n.isTextual()) {
            out.addAll(CommandLine.split(n.asText()));
        } else if (n.isArray()) {
            for (JsonNode a : n) {
                if (!a.isValueNode() || a.isNull()) {
                    throw new JobSpecException("command", "list items must be strings");
                }
                out.add(a.asText());
            }
        } else {
            throw new JobSpecException("command", "must be a string or a list of arguments");
        }
        if (out.isEmpty() || out.get(0).isBlank()) {
            throw new JobSpecException("command", "must not be empty");
        }
        return out;
    }

    private static List<RegexTemplate> regex(JsonNode root) {
        JsonNode n = root.get("regex");
        List<RegexTemplate> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new JobSpecException("regex", "must map metric names to {pattern, unit, direction, aggregate}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String f = "regex." + e.getKey();
            JsonNode t = e.getValue();
            if (!NAME.matcher(e.getKey()).matches()) {
                throw new JobSpecException(f, "is not a valid metric name");
            }
            if (t.isTextual()) {
                t = ((ObjectNode) new ObjectMapper().createObjectNode()).put("pattern", t.asText());
            }
            if (!t.isObject() || !t.path("pattern").isTextual()) {
                throw new JobSpecException(f + ".pattern", "required");
            }
            Pattern p;
            try {
                p = Pattern.compile(t.get("pattern").asText());
            } catch (PatternSyntaxException ex) {
                throw new JobSpecException(f + ".pattern", "invalid regular expression: " + ex.getDescription());
            }
            if (p.matcher("").groupCount() < 1) {
                throw new JobSpecException(
                        f + ".pattern", "needs a capturing group (named 'value' or the first group) for the number");
            }
            String dir = t.path("direction").asText("higher");
            if (!dir.equals("higher") && !dir.equals("lower")) {
                throw new JobSpecException(f + ".direction", "must be 'higher' or 'lower'");
            }
            String agg = t.path("aggregate").asText("last");
            if (!Set.of("last", "mean", "max", "min").contains(agg)) {
                throw new JobSpecException(f + ".aggregate", "must be last, mean, max or min");
            }
            out.add(new RegexTemplate(
                    e.getKey(),
                    p,
                    t.path("unit").asText("1"),
                    dir.equals("higher") ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER,
                    agg));
        }
        return out;
    }
}
