package dev.podium.agent.cli;

public final class AgentMain {
    public static void main(String[] args) {
    }
}
