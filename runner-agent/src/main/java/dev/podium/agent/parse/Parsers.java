package dev.podium.agent.parse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The built-in parsers by format name, and bounded reading of output files. */
public final class Parsers {

    /** Output beyond this is not read: no real report is this large, and a hostile one must not exhaust memory. */
    public static final int MAX_INPUT_BYTES = 32 * 1024 * 1024;
    /** The concrete formats; {@code auto} ({@link AutoParser}) recognises which of them an output is. */
    public static final List<String> FORMATS = List.of(
            "hf-trainer",
            "optimum-benchmark",
            "mlperf",
            "jsonl",
            ServingBenchmarkParser.VLLM,
            ServingBenchmarkParser.SGLANG,
            GenAiPerfParser.FORMAT);

    private Parsers() {}

    public static Optional<OutputParser> byFormat(String format) {
        return Optional.ofNullable(
                switch (format == null ? "" : format) {
                    case "hf-trainer" -> new HfTrainerParser();
                    case "optimum-benchmark" -> new OptimumBenchmarkParser();
                    case "mlperf" -> new MlperfParser();
                    case "jsonl" -> new JsonLinesParser();
                    case ServingBenchmarkParser.VLLM, ServingBenchmarkParser.SGLANG ->
                        new ServingBenchmarkParser(format);
                    case GenAiPerfParser.FORMAT -> new GenAiPerfParser();
                    case AutoParser.FORMAT -> new AutoParser();
                    default -> null;
                });
    }

    /** The file's text, at most {@link #MAX_INPUT_BYTES}; invalid UTF-8 becomes replacement characters. */
    public static String read(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_INPUT_BYTES);
        }
        return decode(bytes);
    }

    public static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString()
                    .replace('\u0000', '\uFFFD');
        } catch (CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
