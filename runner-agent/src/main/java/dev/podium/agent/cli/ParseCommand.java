package dev.podium.agent.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.agent.parse.OutputParser;
import dev.podium.agent.parse.ParseResult;
import dev.podium.agent.parse.ParsedMetric;
import dev.podium.agent.parse.Parsers;
import dev.podium.agent.parse.RegexParser;
import dev.podium.agent.parse.RegexTemplate;
import dev.podium.events.model.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "parse",
        mixinStandardHelpOptions = true,
        description = {
            "Print, as JSON, the metrics a parser finds in a benchmark output (name, value, unit). Publishes nothing.",
            "Formats: hf-trainer (log with '***** train metrics *****' or the metrics dict line, or all_results.json), "
                    + "optimum-benchmark (benchmark_report.json), mlperf (mlperf_log_summary.txt or :::MLLOG lines), "
                    + "jsonl (Podium's JSON-lines protocol), vllm-serving and sglang-serving (the printed result block or "
                    + "the saved result JSON), genai-perf (genai-perf or AIPerf profile export JSON), regex (with --regex); "
                    + "auto (the default) recognises which of the built-in formats the file is."
        })
public final class ParseCommand implements Callable<Integer> {

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "auto",
            description =
                    "auto (default), hf-trainer, optimum-benchmark, mlperf, jsonl, vllm-serving, sglang-serving, genai-perf or regex.")
    String format;

    @Option(
            names = "--regex",
            paramLabel = "NAME=PATTERN",
            description = "A regex template for --format regex; the first group captures the value.")
    List<String> regex = new ArrayList<>();

    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Override
    public Integer call() throws Exception {
        OutputParser parser = parser(format, regex);
        if (parser == null) {
            return 2;
        }
        if (!Files.isRegularFile(file)) {
            System.err.println("podium-agent: " + file + " does not exist");
            return 2;
        }
        ParseResult r = parser.parse(Parsers.read(file));
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode out = mapper.createObjectNode();
        out.put("format", r.format());
        ArrayNode metrics = out.putArray("metrics");
        for (ParsedMetric m : r.metrics()) {
            metrics.addObject()
                    .put("name", m.name())
                    .put("value", m.value())
                    .put("unit", m.unit())
                    .put("direction", m.direction() == Direction.HIGHER_IS_BETTER ? "higher" : "lower");
        }
        ArrayNode warnings = out.putArray("warnings");
        r.warnings().forEach(warnings::add);
        System.out.println(mapper.writeValueAsString(out));
        return r.metrics().isEmpty() ? 1 : 0;
    }

    static OutputParser parser(String format, List<String> regex) {
        if ("regex".equals(format)) {
            List<RegexTemplate> templates = new ArrayList<>();
            for (String r : regex) {
                int eq = r.indexOf('=');
                if (eq < 1) {
                    System.err.println("podium-agent: --regex must be NAME=PATTERN, was '" + r + "'");
                    return null;
                }
                try {
                    templates.add(new RegexTemplate(
                            r.substring(0, eq),
                            Pattern.compile(r.substring(eq + 1)),
                            "1",
                            Direction.HIGHER_IS_BETTER,
                            "last"));
                } catch (PatternSyntaxException e) {
                    System.err.println("podium-agent: --regex " + r.substring(0, eq) + ": " + e.getDescription());
                    return null;
                }
            }
            if (templates.isEmpty()) {
                System.err.println("podium-agent: --format regex needs at least one --regex NAME=PATTERN");
                return null;
            }
            return new RegexParser(templates);
        }
        return Parsers.byFormat(format).orElseGet(() -> {
            System.err.println(
                    "podium-agent: unknown format '" + format + "'; use one of " + Parsers.FORMATS + ", auto or regex");
            return null;
        });
    }
}
