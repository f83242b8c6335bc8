package dev.podium.agent.support;

import dev.podium.agent.detect.ToolRunner;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A tool runner that answers each command with its recorded output and has no other tool installed. */
public final class RecordedTools extends ToolRunner {

    private final Map<List<String>, String> outputs;

    public RecordedTools(Map<List<String>, String> outputs) {
        this.outputs = Map.copyOf(outputs);
    }

    @Override
    public Optional<String> run(List<String> command, long timeoutSeconds) {
        return Optional.ofNullable(outputs.get(command));
    }

    @Override
    public boolean onPath(String tool) {
        return outputs.keySet().stream().anyMatch(c -> c.get(0).equals(tool));
    }
}
