package dev.podium.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HlSmi;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.NvidiaSmi;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.support.Resources;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Host;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code detect --json} prints what the events records read: snake_case {@link Host} and {@link Accelerator}. */
class DetectCommandTest {

    private static final ObjectMapper EVENTS = EventCodec.newMapper();

    private static String detectJson() {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertThat(AgentMain.execute("detect", "--json", "--no-probe")).isZero();
            return buf.toString(StandardCharsets.UTF_8);
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void detectJsonOfThisHostDecodesIntoTheEventsHostRecord() throws Exception {
        JsonNode root = EVENTS.readTree(detectJson());
        assertThat(root.has("host")).isTrue();
        assertThat(root.path("host").has("cpu_model")).isTrue(); // snake_case, as in events
        assertThat(root.path("host").has("cpuModel")).isFalse();
        Host host = EVENTS.treeToValue(root.path("host"), Host.class);
        assertThat(host).isEqualTo(new HostDetector(new ToolRunner()).host());
        assertThat(host.threads()).isPositive();
        List<Accelerator> accelerators =
                EVENTS.convertValue(root.path("accelerators"), new TypeReference<List<Accelerator>>() {});
        assertThat(accelerators).isNotNull();
        assertThat(root.path("tools_found").isArray()).isTrue();
    }

    @Test
    void recordedAcceleratorsRoundTripThroughDetectJson() throws Exception {
        List<Accelerator> recorded = new ArrayList<>();
        recorded.addAll(HostDetector.group(NvidiaSmi.parseTable(Resources.text("detect/nvidia-smi-h200-x8.txt"))));
        recorded.addAll(HostDetector.group(HlSmi.parseTable(Resources.text("detect/hl-smi-gaudi2-x8.txt"))));
        Host host = new HostDetector(new ToolRunner()).host();
        String json = DetectCommand.json(new Fingerprint(host, recorded, null, List.of("nvidia-smi", "hl-smi")));

        JsonNode root = EVENTS.readTree(json);
        assertThat(root.path("accelerators").get(0).path("device_id").asText()).isEqualTo("nvidia-h200-sxm-141gb");
        assertThat(root.path("accelerators").get(0).path("count_per_node").asInt())
                .isEqualTo(8);
        assertThat(EVENTS.treeToValue(root.path("host"), Host.class)).isEqualTo(host);
        assertThat(EVENTS.convertValue(root.path("accelerators"), new TypeReference<List<Accelerator>>() {}))
                .isEqualTo(recorded);
    }
}
