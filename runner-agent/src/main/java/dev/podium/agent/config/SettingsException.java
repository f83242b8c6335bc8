package dev.podium.agent.config;

/** A configuration problem the operator must fix; its message says what and where. */
public class SettingsException extends RuntimeException {
    public SettingsException(String message) {
        super(message);
    }
}
