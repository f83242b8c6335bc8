package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.testing.SampleEvents;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class IdentityBindingTest {

    private static final UUID RUN = SampleEvents.uuid("binding-run");
    private static final UUID OTHER = SampleEvents.uuid("binding-other-run");

    @Test
    void everySampleEventIsBound() {
        for (EventType type : EventType.values()) {
            assertThat(IdentityBinding.violation(SampleEvents.of(type)))
                    .as(type.name())
                    .isEmpty();
        }
    }

    @Test
    void aRunEventNamingAnotherRunIsNotBound() {
        Envelope e = Envelope.of(
                UUID.randomUUID(),
                StreamId.run(RUN),
                1,
                "a1",
                SampleEvents.AT,
                new RunProgress(OTHER, 1, 1, 10, "measure", null));
        assertThat(IdentityBinding.violation(e))
                .contains(
                        new Violation("payload.run_id", "'" + OTHER + "' is not the run of stream 'run/" + RUN + "'"));
    }

    @Test
    void aRunStreamInUpperCaseIsNotTheRunsStream() {
        String upper = "run/" + RUN.toString().toUpperCase(Locale.ROOT);
        Envelope e = new Envelope(
                UUID.randomUUID(),
                EventType.RunProgress,
                1,
                upper,
                1,
                "a1",
                SampleEvents.AT,
                new RunProgress(RUN, 1, 1, 10, "measure", null));
        assertThat(IdentityBinding.violation(e)).map(Violation::field).contains("payload.run_id");
        assertThat(StreamId.parse(upper)).isEmpty();
    }

    @Test
    void aClaimForAnotherAgentIsNotBound() {
        Envelope e = Envelope.of(
                UUID.randomUUID(),
                StreamId.run(RUN),
                1,
                "a1",
                SampleEvents.AT,
                new JobClaimed(RUN, UUID.randomUUID(), "a2", "pool"));
        assertThat(IdentityBinding.violation(e))
                .contains(new Violation("payload.agent_id", "'a2' is not the writer 'a1'"));
    }

    @Test
    void aRegistrationOfAnotherAgentOrBootIsNotBound() {
        UUID boot = UUID.randomUUID();
        Envelope other = SampleEvents.agentRegistered("a2", boot, "intel-gaudi2", SampleEvents.AT);
        Envelope asA1 =
                Envelope.of(UUID.randomUUID(), StreamId.agent("a1", boot), 1, "a1", SampleEvents.AT, other.payload());
        assertThat(IdentityBinding.violation(asA1)).map(Violation::field).contains("payload.agent_id");
        Envelope otherBoot = Envelope.of(
                UUID.randomUUID(), StreamId.agent("a2", UUID.randomUUID()), 1, "a2", SampleEvents.AT, other.payload());
        assertThat(IdentityBinding.violation(otherBoot)).map(Violation::field).contains("payload.boot_id");
    }

    @Test
    void aJobEventOfAnotherJobIsNotBound() {
        Envelope e = Envelope.of(
                UUID.randomUUID(),
                StreamId.job(UUID.randomUUID()),
                1,
                null,
                SampleEvents.AT,
                new JobCancelled(UUID.randomUUID(), null, "ops"));
        assertThat(IdentityBinding.violation(e)).map(Violation::field).contains("payload.job_id");
    }
}
