package dev.podium.agent.job;

import dev.podium.agent.parse.RegexTemplate;
import dev.podium.events.model.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job as the agent runs it: the contract's {@link JobSpec} plus what only a local YAML file states (version, scenario,
 * model, regex templates).
 */
public record JobDefinition(
        JobSpec spec, String benchmarkVersion, String scenario, String model, List<RegexTemplate> regexTemplates) {

    /** Every combination of the matrix, each merged over the fixed parameters, in the order the matrix lists them. */
    public List<Map<String, String>> points() {
        List<Map<String, String>> points = new ArrayList<>();
        points.add(new LinkedHashMap<>(spec.parameters()));
        for (Map.Entry<String, List<String>> axis : spec.matrix().entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : points) {
                for (String v : axis.getValue()) {
                    Map<String, String> q = new LinkedHashMap<>(p);
                    q.put(axis.getKey(), v);
                    next.add(q);
                }
            }
            points = next;
        }
        return points;
    }
}
