package dev.podium.events.admin;

/** A signing key was issued to an agent. The secret is never part of an event. */
public record AgentKeyIssued(String agentId, String keyId, String actor) implements AdminEvent {}
