package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LLM serving benchmarks: vLLM's {@code vllm bench serve} (formerly {@code benchmarks/benchmark_serving.py}) and SGLang's
 * {@code python -m sglang.bench_serving}, which share one layout. Reads either the printed
 * {@code ===== Serving Benchmark Result =====} block ({@code "Label:   value"} lines) or the saved result
 * (vLLM's {@code --save-result} JSON, SGLang's {@code --output-file} JSON lines, one object per run appended; the last
 * object wins). Both give the same metric names, so the two harnesses compare: throughputs
 * ({@code output_token_throughput}, first, {@code request_throughput}, ...) higher-is-better, latencies as
 * {@code ttft_p99_ms}, {@code tpot_mean_ms}, {@code itl_p50_ms}, {@code e2e_latency_p99_ms} (median is p50)
 * lower-is-better; counts and the configured concurrency are facts ({@code info}). vLLM's per-request {@code latencies},
 * {@code ttfts} and {@code itls} (with {@code --save-detailed}) go with the mean latency metrics as their samples.
 */
public final class ServingBenchmarkParser implements OutputParser {

    public static final String VLLM = "vllm-serving";
    public static final String SGLANG = "sglang-serving";
    static final String PRIMARY = "output_token_throughput";

    private static final Pattern BLOCK_START = Pattern.compile("^\\s*=+ Serving Benchmark Result =+\\s*$");
    private static final Pattern BLOCK_END = Pattern.compile("^\\s*={10,}\\s*$");
    private static final Pattern LABEL_LINE = Pattern.compile("^\\s*([^:]{1,80}):\\s+(\\S.{0,99}?)\\s*$");
    private static final Pattern LATENCY_LABEL = Pattern.compile(
            "(?i)(mean|median|std|max|p\\d{1,2}(?:\\.\\d{1,3})?) (ttft|tpot|itl|e2el|e2e latency) \\(ms\\)");
    private static final Pattern LATENCY_KEY =
            Pattern.compile("(mean|median|std|max|p\\d{1,2}(?:\\.\\d{1,3})?)_(ttft|tpot|itl|e2el|e2e_latency)_ms");
    /** Printed label (lower case) or saved key, to metric name and unit; all higher-is-better but the duration. */
    private static final Map<String, String[]> RATES = Map.ofEntries(
            Map.entry("output token throughput (tok/s)", new String[] {PRIMARY, "tokens/s"}),
            Map.entry("output_throughput", new String[] {PRIMARY, "tokens/s"}),
            Map.entry("request throughput (req/s)", new String[] {"request_throughput", "req/s"}),
            Map.entry("request_throughput", new String[] {"request_throughput", "req/s"}),
            Map.entry("request goodput (req/s)", new String[] {"request_goodput", "req/s"}),
            Map.entry("request_goodput", new String[] {"request_goodput", "req/s"}),
            Map.entry("input token throughput (tok/s)", new String[] {"input_token_throughput", "tokens/s"}),
            Map.entry("input_throughput", new String[] {"input_token_throughput", "tokens/s"}),
            Map.entry("total token throughput (tok/s)", new String[] {"total_token_throughput", "tokens/s"}),
            Map.entry("total_token_throughput", new String[] {"total_token_throughput", "tokens/s"}),
            Map.entry("total_throughput", new String[] {"total_token_throughput", "tokens/s"}),
            Map.entry(
                    "peak output token throughput (tok/s)", new String[] {"peak_output_token_throughput", "tokens/s"}),
            Map.entry("max_output_tokens_per_s", new String[] {"peak_output_token_throughput", "tokens/s"}),
            Map.entry("benchmark duration (s)", new String[] {"benchmark_duration", "s"}),
            Map.entry("duration", new String[] {"benchmark_duration", "s"}));

    private static final Map<String, String> FACTS = Map.ofEntries(
            Map.entry("successful requests", "completed"),
            Map.entry("completed", "completed"),
            Map.entry("failed requests", "failed"),
            Map.entry("failed", "failed"),
            Map.entry("maximum request concurrency", "max_concurrency"),
            Map.entry("max request concurrency", "max_concurrency"),
            Map.entry("max_concurrency", "max_concurrency"),
            Map.entry("traffic request rate", "request_rate"),
            Map.entry("request rate configured (rps)", "request_rate"),
            Map.entry("request_rate", "request_rate"),
            Map.entry("concurrency", "concurrency"),
            Map.entry("peak concurrent requests", "max_concurrent_requests"),
            Map.entry("max_concurrent_requests", "max_concurrent_requests"),
            Map.entry("backend", "backend"),
            Map.entry("model_id", "model_id"),
            Map.entry("num_prompts", "num_prompts"),
            Map.entry("total input tokens", "total_input_tokens"),
            Map.entry("total_input_tokens", "total_input_tokens"),
            Map.entry("total generated tokens", "total_output_tokens"),
            Map.entry("total_output_tokens", "total_output_tokens"),
            Map.entry("random_input_len", "random_input_len"),
            Map.entry("random_output_len", "random_output_len"),
            Map.entry("dataset_name", "dataset_name"));
    /** vLLM's per-request lists (seconds) and the metric whose samples they are. */
    private static final Map<String, String> PER_REQUEST =
            Map.of("latencies", "e2e_latency_mean_ms", "ttfts", "ttft_mean_ms", "itls", "itl_mean_ms");

    private final String format;

    public ServingBenchmarkParser(String format) {
        if (!format.equals(VLLM) && !format.equals(SGLANG)) {
            throw new IllegalArgumentException("not a serving benchmark format: " + format);
        }
        this.format = format;
    }

    @Override
    public String format() {
        return format;
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format);
        if (text.stripLeading().startsWith("{")) {
            List<JsonNode> results = objects(text, c);
            results.forEach(r -> saved(r, c));
        } else {
            printed(text, c);
        }
        if (c.isEmpty()) {
            c.warn("no serving benchmark result found");
        }
        c.lead(PRIMARY);
        return c.result();
    }

    /** The saved results: one JSON object, or JSON lines of them (SGLang appends one per run). */
    static List<JsonNode> objects(String text, Collector c) {
        List<JsonNode> out = new ArrayList<>();
        Collector ignored = new Collector("");
        JsonNode whole = Json.readPython(text, ignored);
        if (whole != null && whole.isObject()) {
            out.add(whole);
            return out;
        }
        int bad = 0;
        for (String line : Lines.of(text)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = Json.readPython(line, ignored);
            if (n != null && n.isObject()) {
                out.add(n);
            } else {
                bad++;
            }
        }
        if (bad > 0) {
            c.warn(bad + " lines were not JSON objects");
        }
        return out;
    }

    private static void printed(String text, Collector c) {
        boolean in = false;
        for (String raw : Lines.of(text)) {
            String line = Lines.stripAnsi(raw);
            if (BLOCK_START.matcher(line).matches()) {
                in = true;
                continue;
            }
            if (!in) {
                continue;
            }
            if (BLOCK_END.matcher(line).matches()) {
                in = false;
                continue;
            }
            Matcher m = LABEL_LINE.matcher(line);
            if (!m.matches()) {
                continue; // section headings such as "---------------Time to First Token----------------"
            }
            String label = m.group(1).strip().toLowerCase(Locale.ROOT);
            entry(c, label, m.group(2), LATENCY_LABEL.matcher(label));
        }
    }

    private static void saved(JsonNode result, Collector c) {
        for (Iterator<Map.Entry<String, JsonNode>> it = result.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isNull() || PER_REQUEST.containsKey(e.getKey())) {
                continue;
            }
            if (!v.isValueNode()) {
                continue; // lists of generated texts, errors, per-position rates
            }
            entry(c, e.getKey(), v.asText(), LATENCY_KEY.matcher(e.getKey()));
        }
        JsonNode errors = result.path("errors");
        int failed = 0;
        for (JsonNode e : errors) {
            failed += failed(e) ? 1 : 0;
        }
        if (failed > 0) {
            c.warn(failed + " failed requests left out of the per-request latencies");
        }
        PER_REQUEST.forEach((key, metric) -> {
            JsonNode list = result.get(key);
            if (list == null || !list.isArray()) {
                return;
            }
            List<Double> ms = new ArrayList<>();
            for (int i = 0; i < list.size() && ms.size() < Collector.MAX_SAMPLES; i++) {
                // A failed request's latencies are vLLM's zeros, not measurements.
                if (!failed(errors.path(i))) {
                    request(list.get(i), ms, key.equals("itls")); // itls holds one list per request
                }
            }
            c.found(metric).ifPresent(m -> c.metric(m.name(), m.value(), m.unit(), m.direction(), ms));
        });
    }

    /** vLLM's {@code errors} holds "" for a request that succeeded and the error's text for one that failed. */
    private static boolean failed(JsonNode error) {
        return error.isTextual() && !error.asText().isEmpty();
    }

    private static void request(JsonNode x, List<Double> out, boolean listPerRequest) {
        if (x.isArray() && listPerRequest) {
            for (JsonNode v : x) {
                if (out.size() >= Collector.MAX_SAMPLES) {
                    return;
                }
                out.add(ms(v));
            }
        } else {
            out.add(ms(x));
        }
    }

    private static double ms(JsonNode seconds) {
        return seconds.isNumber() ? seconds.asDouble() * 1000 : Double.NaN;
    }

    private static void entry(Collector c, String key, String text, Matcher latency) {
        String fact = FACTS.get(key);
        if (fact != null) {
            c.info(fact, text);
            return;
        }
        String[] rate = RATES.get(key);
        if (rate == null && !latency.matches()) {
            return; // speculative-decoding, probe and other figures this parser does not publish
        }
        Double v = number(text);
        if (v == null) {
            c.warn("unreadable value for " + Collector.clean(key));
            return;
        }
        if (rate != null) {
            c.metric(rate[0], v, rate[1], rate[1].equals("s") ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER);
            return;
        }
        String stat = latency.group(1).toLowerCase(Locale.ROOT);
        String what = latency.group(2).toLowerCase(Locale.ROOT).replace(' ', '_');
        c.metric(
                latencyName(what.equals("e2el") ? "e2e_latency" : what, stat.equals("median") ? "p50" : stat),
                v,
                "ms",
                Direction.LOWER_IS_BETTER);
    }

    /** {@code ttft_p99_ms} and the like: the names every serving parser uses for a latency statistic. */
    static String latencyName(String what, String stat) {
        return what + "_" + stat + "_ms";
    }

    /** A number as Python prints or dumps it: NaN, inf and Infinity are read so that they are dropped with a warning. */
    static Double number(String text) {
        String t = text.strip();
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "nan" -> Double.NaN;
            case "inf", "infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> Collector.number(t);
        };
    }
}
