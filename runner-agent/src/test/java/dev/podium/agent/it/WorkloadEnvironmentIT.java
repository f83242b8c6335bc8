package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.support.AgentFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real agent process, started the way a container starts it (key secret and Kafka password in its environment), runs
 * a job whose workload prints its whole environment: only the allowlisted variables of the job and the agent's base
 * variables are there, never the agent's key or Kafka login.
 */
class WorkloadEnvironmentIT {

    @TempDir
    Path dir;

    @Test
    void theWorkloadSeesOnlyAllowedVariablesAndNeverTheAgentsKeyOrKafkaPassword() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "env-agent");
        Path printed = dir.resolve("child-env.txt");
        Path job = agent.job("env.yaml", """
                benchmark: env-probe
                adapter: command
                command: ["sh", "-c", "env > '%s'; echo '{\\"podium\\": 1, \\"type\\": \\"metric\\", \\"name\\": \\"x\\", \\"value\\": 1.0}'"]
                parser: jsonl
                repetitions: 1
                environment: {MASTER_ADDR: "10.0.0.7", WORLD_SIZE: "2", HF_HOME: "/data/hf", SNEAKY_NAME: "x",
                              LD_PRELOAD: "/tmp/evil.so", PODIUM_KEY_SECRET: "chosen-by-the-job"}
                """.formatted(printed));
        String secret = agent.secretText();
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.podium.agent.cli.AgentMain",
                "run",
                job.toString(),
                "--home",
                agent.home().toString(),
                "--allow-env",
                "HF_HOME,PODIUM_KAFKA_PASSWORD",
                // it writes beside the key file, which isolation hides; WorkloadIsolationIT runs isolated
                "--isolation",
                "off");
        pb.environment().put("PODIUM_AGENT_ID", agent.agentId());
        pb.environment().put("PODIUM_KEY_ID", agent.keyId());
        pb.environment().put("PODIUM_KEY_SECRET", secret);
        pb.environment().put("PODIUM_KAFKA_USERNAME", "agent");
        pb.environment().put("PODIUM_KAFKA_PASSWORD", "kafka-password-0123");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "aws-secret-0123");
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("agent.log"))).isZero();

        String env = Files.readString(printed, StandardCharsets.UTF_8);
        List<String> names = env.lines()
                .filter(l -> l.contains("="))
                .map(l -> l.substring(0, l.indexOf('=')))
                .toList();
        assertThat(env).contains("MASTER_ADDR=10.0.0.7", "WORLD_SIZE=2", "HF_HOME=/data/hf", "PATH=");
        assertThat(names)
                .doesNotContain("SNEAKY_NAME", "LD_PRELOAD", "AWS_SECRET_ACCESS_KEY")
                .noneMatch(n -> n.startsWith("PODIUM_"));
        assertThat(env).doesNotContain(secret, "kafka-password-0123", "aws-secret-0123", "chosen-by-the-job");
        assertThat(Files.readString(dir.resolve("agent.log"))).contains("SNEAKY_NAME", "not on this agent's allowlist");
    }
}
