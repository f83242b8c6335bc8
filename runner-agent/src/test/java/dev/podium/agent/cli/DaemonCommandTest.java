package dev.podium.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.support.AgentFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's options: usage errors exit 2 before anything connects to Kafka. */
class DaemonCommandTest {

    @TempDir
    Path dir;

    private int daemon(String... extra) throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "cli-agent");
        String[] common = {
            "daemon",
            "--key-file",
            agent.keyFile().toString(),
            "--home",
            agent.home().toString(),
            "--bootstrap-servers",
            "127.0.0.1:1"
        };
        String[] args = new String[common.length + extra.length];
        System.arraycopy(common, 0, args, 0, common.length);
        System.arraycopy(extra, 0, args, common.length, extra.length);
        return AgentMain.execute(args);
    }

    @Test
    void zeroSlotsIsAUsageError() throws Exception {
        assertThat(daemon("--slots", "0")).isEqualTo(2);
    }

    @Test
    void aNonPositiveHeartbeatIntervalOrClaimTimeoutIsAUsageError() throws Exception {
        assertThat(daemon("--heartbeat-interval", "0")).isEqualTo(2);
        assertThat(daemon("--claim-timeout", "-1")).isEqualTo(2);
    }

    @Test
    void helpNamesTheJobOptions() {
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cl = new picocli.CommandLine(new AgentMain());
        cl.setOut(new java.io.PrintWriter(out));
        assertThat(cl.execute("daemon", "--help")).isZero();
        assertThat(out.toString()).contains("--slots", "--claim-timeout", "--heartbeat-interval", "podium.jobs");
    }
}
