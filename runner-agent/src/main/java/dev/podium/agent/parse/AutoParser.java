package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code --format auto}: recognises which built-in format an output is by the marks only that format prints (Podium's
 * protocol lines, the serving result block and whether it names a {@code Backend:}, the shape of a JSON export, LoadGen's
 * summary title or {@code :::MLLOG}, a Trainer metrics block) and reads it with that parser. The result names the format
 * found; when none is recognised it has no metrics and says so.
 */
public final class AutoParser implements OutputParser {

    public static final String FORMAT = "auto";
    private static final Pattern PROTOCOL_LINE =
            Pattern.compile("(?m)^[ \\t]*\\{.*\"podium\"[ \\t]*:[ \\t]*1[ \\t]*[,}]");
    private static final Pattern SERVING_BLOCK = Pattern.compile("(?m)^[ \\t]*=+ Serving Benchmark Result =+[ \\t]*$");
    private static final Pattern SGLANG_LINE = Pattern.compile("(?m)^Backend:[ \\t]+\\S|^Mean E2E Latency \\(ms\\):");
    private static final Pattern MLPERF = Pattern.compile("(?m)^MLPerf Results Summary[ \\t]*$|:::MLLOG \\{");
    private static final Pattern TRAINER = Pattern.compile(
            "(?m)^[ \\t]*\\*{5} \\w+ metrics \\*{5}[ \\t]*$|^[ \\t]*\\{[ \\t]*'(train|eval|test|predict)_runtime'[ \\t]*:|^Throughput \\(including tokenization\\) = ");
    private static final Pattern SGLANG_KEY =
            Pattern.compile("_e2e_latency_ms$|^total_output_tokens_retokenized$|^dataset_name$");
    private static final Pattern SERVING_KEY =
            Pattern.compile("^(request_throughput|output_throughput|(mean|median|p\\d+)_(ttft|tpot|itl|e2el)_ms)$");
    private static final Pattern TRAINER_KEY = Pattern.compile("^(train|eval|test|predict)_|^epoch$");

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public ParseResult parse(String text) {
        Optional<String> format = detect(text);
        if (format.isEmpty()) {
            return new ParseResult(
                    FORMAT,
                    List.of(),
                    List.of(),
                    Map.of(),
                    List.of("no known format recognised (" + String.join(", ", Parsers.FORMATS)
                            + "); name one with --format"));
        }
        return Parsers.byFormat(format.get()).orElseThrow().parse(text);
    }

    /** The built-in format {@code text} is written in, if any is recognised. */
    public static Optional<String> detect(String text) {
        String head = text.length() > Lines.MAX_LINE * 64 ? text.substring(0, Lines.MAX_LINE * 64) : text;
        if (PROTOCOL_LINE.matcher(head).find()) {
            return Optional.of("jsonl");
        }
        if (text.stripLeading().startsWith("{")) {
            return json(text);
        }
        if (SERVING_BLOCK.matcher(text).find()) {
            return Optional.of(
                    SGLANG_LINE.matcher(text).find() ? ServingBenchmarkParser.SGLANG : ServingBenchmarkParser.VLLM);
        }
        if (MLPERF.matcher(text).find()) {
            return Optional.of("mlperf");
        }
        if (TRAINER.matcher(text).find()) {
            return Optional.of("hf-trainer");
        }
        return Optional.empty();
    }

    private static Optional<String> json(String text) {
        List<JsonNode> objects = ServingBenchmarkParser.objects(text, new Collector(FORMAT));
        if (objects.isEmpty()) {
            return Optional.empty();
        }
        JsonNode root = objects.get(objects.size() - 1);
        boolean serving = false;
        boolean sglang = false;
        boolean trainer = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isObject() && v.path("unit").isTextual() && v.has("avg")) {
                return Optional.of(GenAiPerfParser.FORMAT);
            }
            if (e.getKey().equals("report")
                    || v.isObject()
                            && (v.path("latency").isObject()
                                    || v.path("throughput").isObject())) {
                return Optional.of("optimum-benchmark");
            }
            serving |= SERVING_KEY.matcher(e.getKey()).find();
            sglang |= SGLANG_KEY.matcher(e.getKey()).find();
            trainer |= TRAINER_KEY.matcher(e.getKey()).find() && v.isNumber();
        }
        if (serving) {
            return Optional.of(sglang ? ServingBenchmarkParser.SGLANG : ServingBenchmarkParser.VLLM);
        }
        return trainer ? Optional.of("hf-trainer") : Optional.empty();
    }
}
