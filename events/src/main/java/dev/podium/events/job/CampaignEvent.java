package dev.podium.events.job;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;

/** Events of a campaign stream, written by ingest's command side. */
public sealed interface CampaignEvent extends Event permits CampaignCreated {

    @Override
    default StreamKind streamKind() {
        return StreamKind.CAMPAIGN;
    }
}
