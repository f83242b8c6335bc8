package dev.podium.events.validate;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.job.JobEvent;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunEvent;
import java.util.Objects;
import java.util.Optional;

/**
 * The identities a payload carries must be the ones its envelope names: a run event's {@code run_id} is the run of its
 * stream, a job event's {@code job_id} the job of its stream, a claim's and a registration's {@code agent_id} the writer,
 * a registration's boot id the boot of its agent stream. Stream ids compare as text, so only the canonical (lower-case)
 * form of a stream id can match. Ingest refuses a record that breaks this, and the projections skip a stored event that
 * does, so no event can reach the rows of a stream its writer does not own. Pure.
 */
public final class IdentityBinding {

    private IdentityBinding() {}

    /** What the payload names that its envelope does not allow; empty when every identity agrees. */
    public static Optional<Violation> violation(Envelope e) {
        Object p = e.payload();
        if (p instanceof JobClaimed j && !Objects.equals(j.agentId(), e.agentId())) {
            return Optional.of(
                    new Violation("payload.agent_id", "'" + j.agentId() + "' is not the writer '" + e.agentId() + "'"));
        }
        if (p instanceof RunEvent r) {
            return mismatch("payload.run_id", "run", r.runId(), StreamId.run(r.runId()), e);
        }
        if (p instanceof AgentRegistered a) {
            if (!Objects.equals(a.agentId(), e.agentId())) {
                return Optional.of(new Violation(
                        "payload.agent_id", "'" + a.agentId() + "' is not the writer '" + e.agentId() + "'"));
            }
            return mismatch("payload.boot_id", "boot", a.bootId(), StreamId.agent(a.agentId(), a.bootId()), e);
        }
        if (p instanceof JobEvent j) {
            return mismatch("payload.job_id", "job", j.jobId(), StreamId.job(j.jobId()), e);
        }
        if (p instanceof CampaignCreated c) {
            return mismatch("payload.campaign_id", "campaign", c.campaignId(), StreamId.campaign(c.campaignId()), e);
        }
        return Optional.empty();
    }

    private static Optional<Violation> mismatch(String field, String noun, Object named, StreamId implied, Envelope e) {
        if (named != null && implied.value().equals(e.streamId())) {
            return Optional.empty();
        }
        return Optional.of(
                new Violation(field, "'" + named + "' is not the " + noun + " of stream '" + e.streamId() + "'"));
    }
}
