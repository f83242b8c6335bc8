package dev.podium.agent.publish;

/** Kafka topics the agent writes and reads (see DESIGN.md, Topics). */
public final class Topics {
    public static final String EVENTS = "podium.events";
    public static final String HEARTBEATS = "podium.heartbeats";
    public static final String JOBS = "podium.jobs";

    private Topics() {}
}
