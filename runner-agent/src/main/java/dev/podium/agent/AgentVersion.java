package dev.podium.agent;

/** The agent's version as recorded in provenance; from the jar manifest when packaged. */
public final class AgentVersion {

    public static final String VERSION = version();

    private AgentVersion() {}

    private static String version() {
        String v = AgentVersion.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
