package dev.podium.events.codec;

import dev.podium.events.Envelope;
import dev.podium.events.validate.Violation;
import java.util.List;
import java.util.stream.Collectors;

/** The outcome of decoding an untrusted record. */
public sealed interface Decoded {

    /** A valid event and the SHA-256 of its bytes. */
    record Accepted(Envelope envelope, String contentHash) implements Decoded {}

    /** Every rule the record broke, each naming the field and the reason. */
    record Rejected(List<Violation> violations) implements Decoded {

        public Rejected {
            violations = List.copyOf(violations);
        }

        /** One line for a DLQ header or a log: {@code field: reason; field: reason}. */
        public String reason() {
            return violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
        }
    }

    static Rejected rejected(Violation violation) {
        return new Rejected(List.of(violation));
    }
}
