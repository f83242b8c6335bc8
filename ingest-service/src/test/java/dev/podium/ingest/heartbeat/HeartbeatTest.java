package dev.podium.ingest.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HeartbeatTest {

    private static Heartbeat of(String agent, String state, Integer epoch, Map<String, Double> sensors) {
        return new Heartbeat(agent, null, "pool", state, null, null, epoch, null, null, sensors, null, null);
    }

    @Test
    void aPlainHeartbeatHasNoProblem() {
        assertThat(of("a", "idle", 1, Map.of("power_w", 100.0)).problem()).isNull();
    }

    @Test
    void badHeartbeatsNameTheirProblem() {
        assertThat(of(null, "idle", null, null).problem()).isEqualTo("agent_id missing");
        assertThat(of("a", "x\u0000", null, null).problem()).contains("\\u0000");
        assertThat(of("a", "x".repeat(300), null, null).problem()).contains("over 256");
        assertThat(of("a", "idle", -1, null).problem()).isEqualTo("lease_epoch is negative");
        assertThat(of("a", "idle", null, Map.of("t", Double.NaN)).problem()).contains("finite");
    }
}
