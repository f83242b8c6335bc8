package dev.podium.events.published;

import java.util.List;

/**
 * A claim file that cannot be imported. Each problem names the file, the claim (by id, or by position when it has no id)
 * and the field, e.g. {@code bridgetower.yaml: claim 'h100-workers0': range: low 12.0 is above high 3.0}.
 */
public final class ClaimFileException extends RuntimeException {

    private final List<String> problems;

    public ClaimFileException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
