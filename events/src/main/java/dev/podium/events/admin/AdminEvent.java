package dev.podium.events.admin;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;

/** Administrative facts, written by the command side with the acting admin token's name in {@code actor}. */
public sealed interface AdminEvent extends Event
        permits ResultRetracted, AgentKeyIssued, AgentKeyRevoked, CatalogEntryHidden {

    String actor();

    @Override
    default StreamKind streamKind() {
        return StreamKind.ADMIN;
    }
}
