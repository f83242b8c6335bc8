package dev.podium.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.reliability.fault.Credentials;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The corpus itself: enough distinct kinds, and every content rejection it expects is the one the decoder gives. */
class HostileCorpusTest {

    static HostileCorpus.Context context() {
        Credentials agent = new Credentials("corpus-agent", "pk_corpus", EventSigner.newSecret());
        Credentials other = new Credentials("corpus-other", "pk_other", EventSigner.newSecret());
        Credentials revoked = new Credentials("corpus-revoked", "pk_revoked", EventSigner.newSecret());
        UUID run = UUID.randomUUID();
        return new HostileCorpus.Context(
                agent,
                other,
                revoked,
                "run/" + run,
                SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 2, 1, 1, 10),
                "test");
    }

    @Test
    void thereAreAtLeastFiftyDistinctKinds() {
        List<HostileCorpus.Kind> kinds = HostileCorpus.kinds();
        Set<String> names = new HashSet<>();
        kinds.forEach(k -> assertThat(names.add(k.name())).as(k.name()).isTrue());
        assertThat(kinds).hasSizeGreaterThanOrEqualTo(50);
    }

    @Test
    void everyContentRejectionIsTheOneTheDecoderGives() {
        HostileCorpus.Context c = context();
        EventCodec codec = new EventCodec();
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        for (HostileCorpus.Kind kind : HostileCorpus.kinds()) {
            for (HostileCorpus.Bad bad : kind.make().apply(c)) {
                byte[] value = bad.record().value();
                Decoded d = value == null ? null : codec.decode(value);
                String actual = d instanceof Decoded.Rejected r ? "invalid: " + r.reason() : "decodes";
                System.out.printf(
                        "%-55s expect %-60s decoder: %s%n",
                        kind.name(), bad.reason(), actual.length() > 140 ? actual.substring(0, 140) : actual);
                if (bad.reason() != null && bad.reason().startsWith("invalid: ")) {
                    soft.assertThat(actual).as(kind.name()).startsWith(bad.reason());
                } else if (bad.reason() != null && bad.reason().startsWith("too large after decompression")) {
                    // refused by ingest's consumer before anything decodes it; the decoder would refuse it too
                    soft.assertThat(actual).as(kind.name()).startsWith("invalid: $: record of");
                } else if (value != null
                        && bad.reason() != null
                        && !bad.reason().startsWith("unsigned")
                        && !bad.reason().startsWith("forged")) {
                    soft.assertThat(actual)
                            .as(kind.name() + " is refused later than decoding")
                            .isEqualTo("decodes");
                }
                if (bad.reason() == null) {
                    soft.assertThat(bad.storedId()).as(kind.name()).isNotNull();
                }
            }
        }
        soft.assertAll();
    }
}
