package dev.podium.agent.parse;

import dev.podium.events.model.Direction;
import java.util.regex.Pattern;

/**
 * A metric declared in a job spec: a pattern whose group "value" (or first group) captures the number, applied to each
 * line; the last match counts unless {@code aggregate} is {@code mean}, {@code max} or {@code min}.
 */
public record RegexTemplate(String name, Pattern pattern, String unit, Direction direction, String aggregate) {}
