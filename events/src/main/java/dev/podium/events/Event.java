package dev.podium.events;

/**
 * The payload of an {@link Envelope}. Each family of events is a sealed interface in its own package (run, agent, job,
 * campaign, admin, published) and belongs to one kind of stream with one writer (see {@link StreamKind}). This root
 * interface cannot itself be sealed across packages without making {@code events} a named module, which would complicate
 * every consumer's class path; {@link EventType} is the closed list of all of them.
 */
public interface Event {

    /** The kind of stream this event may be appended to. */
    StreamKind streamKind();
}
