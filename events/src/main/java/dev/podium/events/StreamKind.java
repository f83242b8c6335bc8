package dev.podium.events;

/**
 * The kinds of stream and who may write them. Agent streams are written by the agent that owns them; the others only by
 * ingest's command side, which appends them straight to the event store and never receives them from Kafka.
 */
public enum StreamKind {
    /** {@code run/<run uuid>}: the agent that created the run. */
    RUN("run", true),
    /** {@code agent/<agent id>/<boot uuid>}: that agent, one stream per process start. */
    AGENT("agent", true),
    /** {@code job/<job uuid>}: the command side. */
    JOB("job", false),
    /** {@code campaign/<uuid>}: the command side. */
    CAMPAIGN("campaign", false),
    /** {@code published/<source slug>}: the command side's importer. */
    PUBLISHED("published", false),
    /** {@code admin/<uuid>}: the command side, recording the acting admin token's name. */
    ADMIN("admin", false);

    private final String prefix;
    private final boolean writtenByAgent;

    StreamKind(String prefix, boolean writtenByAgent) {
        this.prefix = prefix;
        this.writtenByAgent = writtenByAgent;
    }

    public String prefix() {
        return prefix;
    }

    public boolean writtenByAgent() {
        return writtenByAgent;
    }
}
