package dev.podium.agent.parse;

/** Reads metrics from a workload's output. Implementations never evaluate anything in the output. */
public interface OutputParser {

    /** The name used in {@code --format} and in job specs. */
    String format();

    ParseResult parse(String text);
}
