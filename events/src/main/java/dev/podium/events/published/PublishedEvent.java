package dev.podium.events.published;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;

/** Events of a published stream ({@code published/<source slug>}), appended by the command side's importer. */
public sealed interface PublishedEvent extends Event permits PublishedClaimImported {

    @Override
    default StreamKind streamKind() {
        return StreamKind.PUBLISHED;
    }
}
