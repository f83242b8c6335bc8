package dev.podium.events.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BoundedBytesDeserializerTest {

    @Test
    void aValueWithinTheLimitIsCopiedFromItsPosition() {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 1, 2, 3});
        buffer.position(1);
        byte[] out = new BoundedBytesDeserializer(3, null).deserialize("t", null, buffer);
        assertThat(out).containsExactly(1, 2, 3);
        assertThat(buffer.position()).isEqualTo(1);
    }

    @Test
    void aValueOverTheLimitIsRefusedWithItsSize() {
        ByteBuffer huge = ByteBuffer.allocate(5000);
        assertThatThrownBy(() -> new BoundedBytesDeserializer(4096, null).deserialize("t", null, huge))
                .isInstanceOf(BoundedBytesDeserializer.TooLarge.class)
                .hasMessage("too large after decompression: 5000 bytes, over the limit of 4096 bytes")
                .satisfies(e -> assertThat(((BoundedBytesDeserializer.TooLarge) e).size())
                        .isEqualTo(5000));
    }

    @Test
    void thePollBudgetTakesTheFirstRecordWhateverItsSizeAndLeavesTheRecordThatWouldOverspend() {
        PollBudget budget = new PollBudget(10);
        BoundedBytesDeserializer values = new BoundedBytesDeserializer(100, budget);
        budget.reset();
        assertThat(values.deserialize("t", null, ByteBuffer.allocate(40))).hasSize(40);
        assertThatThrownBy(() -> values.deserialize("t", null, ByteBuffer.allocate(1)))
                .isInstanceOf(PollBudget.Spent.class);
        assertThat(budget.spent()).isTrue();
        budget.reset();
        assertThat(budget.spent()).isFalse();
        assertThat(values.deserialize("t", null, ByteBuffer.allocate(6))).hasSize(6);
        assertThat(values.deserialize("t", null, ByteBuffer.allocate(4))).hasSize(4);
        assertThat(budget.spent()).as("full, but nothing left behind yet").isFalse();
        assertThatThrownBy(() -> values.deserialize("t", null, ByteBuffer.allocate(1)))
                .isInstanceOf(PollBudget.Spent.class);
        assertThat(budget.spent()).isTrue();
    }

    @Test
    void aNullValueStaysNull() {
        assertThat(new BoundedBytesDeserializer(1, null).deserialize("t", null, (ByteBuffer) null))
                .isNull();
    }
}
