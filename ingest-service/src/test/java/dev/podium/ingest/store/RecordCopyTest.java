package dev.podium.ingest.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.codec.EventCodec;
import dev.podium.events.validate.Limits;
import org.junit.jupiter.api.Test;

class RecordCopyTest {

    @Test
    void aRedrivableRecordKeepsItsBytes() {
        byte[] v = new byte[200_000];
        RecordCopy copy = RecordCopy.of(v, true);
        assertThat(copy.bytes()).isSameAs(v);
        assertThat(copy.truncated()).isFalse();
    }

    @Test
    void anOversizedOrUndecodableRecordKeepsAPrefixItsSizeAndItsHash() {
        byte[] big = new byte[Limits.MAX_RECORD_BYTES + 1];
        RecordCopy copy = RecordCopy.of(big, true);
        assertThat(copy.bytes()).hasSize(RecordCopy.PREFIX_BYTES);
        assertThat(copy.originalBytes()).isEqualTo(big.length);
        assertThat(copy.sha256()).isEqualTo(EventCodec.contentHash(big));
        assertThat(copy.truncated()).isTrue();
        assertThat(RecordCopy.of(new byte[200_000], false).bytes()).hasSize(RecordCopy.PREFIX_BYTES);
    }
}
