package dev.podium.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {

    static final Map<String, String> AGENT = Map.of(
            "PATH",
            "/usr/bin:/bin",
            "HOME",
            "/home/agent",
            "PODIUM_KEY_SECRET",
            "agent-secret",
            "PODIUM_KAFKA_PASSWORD",
            "kafka-password",
            "AWS_SECRET_ACCESS_KEY",
            "aws");

    @Test
    void onlyTheBaseOfTheAgentsEnvironmentIsInherited() {
        Map<String, String> env = new ChildEnvironment(List.of()).build(AGENT, Map.of(), n -> {});
        assertThat(env).containsExactlyInAnyOrderEntriesOf(Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/agent"));
    }

    @Test
    void aJobPassesDistributedVariablesAndConfiguredNamesOnlyAndEachDroppedOneIsNamed() {
        List<String> dropped = new ArrayList<>();
        Map<String, String> env = new ChildEnvironment(List.of("HF_HOME"))
                .build(
                        AGENT,
                        Map.of(
                                "MASTER_ADDR",
                                "10.0.0.1",
                                "CUDA_VISIBLE_DEVICES",
                                "0,1",
                                "HF_HOME",
                                "/data/hf",
                                "LD_PRELOAD",
                                "/tmp/evil.so",
                                "PATH",
                                "/tmp/evil"),
                        dropped::add);
        assertThat(env)
                .containsEntry("MASTER_ADDR", "10.0.0.1")
                .containsEntry("CUDA_VISIBLE_DEVICES", "0,1")
                .containsEntry("HF_HOME", "/data/hf")
                .containsEntry("PATH", "/usr/bin:/bin")
                .doesNotContainKey("LD_PRELOAD");
        assertThat(dropped).containsExactlyInAnyOrder("LD_PRELOAD", "PATH");
    }

    @Test
    void namesOfTheAgentItselfAreNeverPassedEvenWhenConfigured() {
        ChildEnvironment child = new ChildEnvironment(List.of("PODIUM_KEY_SECRET", "PODIUM_KAFKA_PASSWORD"));
        assertThat(child.allowed()).noneMatch(n -> n.startsWith("PODIUM_"));
        Map<String, String> env = child.build(AGENT, Map.of("PODIUM_KEY_SECRET", "chosen-by-job"), n -> {});
        assertThat(env).doesNotContainKeys("PODIUM_KEY_SECRET", "PODIUM_KAFKA_PASSWORD");
    }
}
