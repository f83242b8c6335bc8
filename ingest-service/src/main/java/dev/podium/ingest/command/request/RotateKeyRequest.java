package dev.podium.ingest.command.request;

/** Body of {@code POST /admin/agents/{id}/keys/rotate}, optional: without a pool the new key keeps the old one's. */
public record RotateKeyRequest(@PoolName String pool) implements AdminRequest {}
