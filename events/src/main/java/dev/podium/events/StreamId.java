package dev.podium.events;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A parsed stream id such as {@code run/0b7c...} or {@code agent/gpu-host-3/5f1e...}. Stream ids are the Kafka key, so all
 * events of one stream stay in order on one partition.
 */
public record StreamId(StreamKind kind, String value) {

    private static final Pattern AGENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");

    public static StreamId run(UUID runId) {
        return new StreamId(StreamKind.RUN, "run/" + runId);
    }

    public static StreamId agent(String agentId, UUID bootId) {
        return new StreamId(StreamKind.AGENT, "agent/" + agentId + "/" + bootId);
    }

    public static StreamId job(UUID jobId) {
        return new StreamId(StreamKind.JOB, "job/" + jobId);
    }

    public static StreamId campaign(UUID campaignId) {
        return new StreamId(StreamKind.CAMPAIGN, "campaign/" + campaignId);
    }

    public static StreamId published(String sourceSlug) {
        return new StreamId(StreamKind.PUBLISHED, "published/" + sourceSlug);
    }

    public static StreamId admin(UUID id) {
        return new StreamId(StreamKind.ADMIN, "admin/" + id);
    }

    /** Parses a stream id; empty when it does not have the shape of any kind. */
    public static Optional<StreamId> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String[] parts = value.split("/", -1);
        for (StreamKind kind : StreamKind.values()) {
            if (!parts[0].equals(kind.prefix())) {
                continue;
            }
            boolean ok = switch (kind) {
                case AGENT -> parts.length == 3 && AGENT_ID.matcher(parts[1]).matches() && isUuid(parts[2]);
                case PUBLISHED -> parts.length == 2 && SLUG.matcher(parts[1]).matches();
                default -> parts.length == 2 && isUuid(parts[1]);
            };
            return ok ? Optional.of(new StreamId(kind, value)) : Optional.empty();
        }
        return Optional.empty();
    }

    /** True when {@code agentId} can name an agent: a letter or digit, then letters, digits, '.', '_', '-'; 128 at most. */
    public static boolean isValidAgentId(String agentId) {
        return agentId != null && AGENT_ID.matcher(agentId).matches();
    }

    /** The agent id named in an agent stream id; empty for other kinds. */
    public Optional<String> agentId() {
        return kind == StreamKind.AGENT ? Optional.of(value.split("/")[1]) : Optional.empty();
    }

    /** Only the canonical, lower-case form: two spellings of one UUID would be two streams of one run. */
    private static boolean isUuid(String s) {
        try {
            return UUID.fromString(s).toString().equals(s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
