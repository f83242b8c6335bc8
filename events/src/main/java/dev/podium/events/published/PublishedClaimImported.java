package dev.podium.events.published;

/**
 * A published figure or claim was imported. Its event id is a UUIDv5 of source and claim id, so importing the same file
 * twice appends nothing new. {@code actor} is the admin token's name.
 */
public record PublishedClaimImported(PublishedClaim claim, String actor) implements PublishedEvent {}
