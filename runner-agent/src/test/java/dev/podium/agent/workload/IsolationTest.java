package dev.podium.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.workload.Isolation.Kind;
import dev.podium.agent.workload.Isolation.WorkloadUser;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IsolationTest {

    static final Path WORK = Path.of("/var/lib/podium-agent/workload");
    static final List<String> JOB = List.of("python3", "train.py", "--steps", "10");
    static final WorkloadUser USER = new WorkloadUser("podium-workload", 998, 997);

    @Test
    void asRootTheWorkloadDropsToTheWorkloadUserInsideItsOwnPidAndMountNamespaces() {
        Isolation iso = new Isolation(
                Kind.USER,
                WORK,
                Optional.of(USER),
                true,
                List.of(Path.of("/etc/podium"), Path.of("/var/lib/podium-agent")),
                null);
        assertThat(iso.command(JOB))
                .containsExactly(
                        "unshare",
                        "--pid",
                        "--fork",
                        "--kill-child",
                        "--mount-proc",
                        "--mount",
                        "--propagation",
                        "private",
                        "--",
                        "sh",
                        "-c",
                        Isolation.SETUP,
                        "podium-isolate",
                        "/var/lib/podium-agent/workload/run",
                        "/var/lib/podium-agent/workload",
                        "2",
                        "/etc/podium",
                        "/var/lib/podium-agent",
                        "setpriv",
                        "--reuid=998",
                        "--regid=997",
                        "--init-groups",
                        "--no-new-privs",
                        "--",
                        "python3",
                        "train.py",
                        "--steps",
                        "10");
    }

    @Test
    void asRootWithoutNamespacesOnlyTheUidChanges() {
        Isolation iso = new Isolation(Kind.USER, WORK, Optional.of(USER), false, List.of(Path.of("/etc/podium")), null);
        assertThat(iso.command(JOB))
                .containsExactly(
                        "setpriv",
                        "--reuid=998",
                        "--regid=997",
                        "--init-groups",
                        "--no-new-privs",
                        "--",
                        "python3",
                        "train.py",
                        "--steps",
                        "10");
    }

    @Test
    void notAsRootTheWorkloadRunsInNewNamespacesAndASecondUserNamespaceLocksTheCovers() {
        Isolation iso =
                new Isolation(Kind.NAMESPACE, WORK, Optional.empty(), true, List.of(Path.of("/home/me/.podium")), null);
        List<String> cmd = iso.command(JOB);
        assertThat(cmd.subList(0, 11))
                .containsExactly(
                        "unshare",
                        "--user",
                        "--map-root-user",
                        "--pid",
                        "--fork",
                        "--kill-child",
                        "--mount-proc",
                        "--mount",
                        "--propagation",
                        "private",
                        "--");
        assertThat(cmd.subList(11, 19))
                .containsExactly(
                        "sh",
                        "-c",
                        Isolation.SETUP,
                        "podium-isolate",
                        "/var/lib/podium-agent/workload/run",
                        "/var/lib/podium-agent/workload",
                        "1",
                        "/home/me/.podium");
        assertThat(cmd.subList(19, cmd.size()))
                .containsExactly(
                        "unshare",
                        "--user",
                        "--map-root-user",
                        "--mount",
                        "--",
                        "python3",
                        "train.py",
                        "--steps",
                        "10");
    }

    @Test
    void offAndNoneRunTheCommandAsItIs() {
        assertThat(Isolation.off(WORK).command(JOB)).isEqualTo(JOB);
        assertThat(none().command(JOB)).isEqualTo(JOB);
    }

    @Test
    void theSetupEntersTheRunDirectoryByItsNewPathAfterCoveringAndBindsTheWorkDirectoryFromItsOpenDescriptor() {
        // A working directory inherited from before the covers would lead up to what they hide.
        assertThat(Isolation.SETUP.indexOf("cd \"$run\"")).isGreaterThan(Isolation.SETUP.indexOf("mount -t tmpfs"));
        assertThat(Isolation.SETUP).contains("exec 3<\"$work\"", "mount --no-canonicalize --bind /proc/self/fd/3");
        assertThat(Isolation.SETUP.indexOf("exec 3<\"$work\"")).isLessThan(Isolation.SETUP.indexOf("mount -t tmpfs"));
    }

    @Test
    void underAWorkloadUserItsHomeIsTheRunDirectoryAndItsNameItsOwn() {
        Isolation iso = new Isolation(Kind.USER, WORK, Optional.of(USER), false, List.of(), null);
        assertThat(iso.environment(Map.of("HOME", "/root", "USER", "root", "PATH", "/usr/bin")))
                .containsEntry("HOME", "/var/lib/podium-agent/workload/run")
                .containsEntry("USER", "podium-workload")
                .containsEntry("LOGNAME", "podium-workload")
                .containsEntry("PATH", "/usr/bin");
        assertThat(Isolation.off(WORK).environment(Map.of("HOME", "/root"))).containsEntry("HOME", "/root");
    }

    @Test
    void withoutIsolationCommandJobsAreRefusedWithTheReasonAndShippedWorkloadsRun() {
        assertThat(none().refusal(new ExternalCommand(List.of("sh", "-c", "true"))))
                .hasValueSatisfying(
                        r -> assertThat(r).contains("command jobs only isolated", "user namespaces are not available"));
        assertThat(none().refusal(new ReferenceTraining())).isEmpty();
        assertThat(none().refusal(new Inference())).isEmpty();
        assertThat(Isolation.off(WORK).refusal(new ExternalCommand(List.of("true"))))
                .isEmpty();
        assertThat(new Isolation(Kind.USER, WORK, Optional.of(USER), false, List.of(), null)
                        .refusal(new ExternalCommand(List.of("true"))))
                .isEmpty();
    }

    @Test
    void theRunDirectoryIsInsideTheWorkloadDirectory() {
        assertThat(Isolation.off(WORK).runDirectory()).isEqualTo(WORK.resolve("run"));
    }

    @Test
    void anInterpreterAJobChoseIsProbedIsolatedWithTheWorkloadsEnvironmentNeverTheAgents() {
        Isolation iso = new Isolation(Kind.USER, WORK, Optional.of(USER), false, List.of(), null);
        ProcessBuilder pb = new IsolatedTools(iso, Map.of("PATH", "/usr/bin")).builder(List.of("/tmp/evil", "-c", "x"));
        assertThat(pb.command()).startsWith("setpriv", "--reuid=998").endsWith("/tmp/evil", "-c", "x");
        assertThat(pb.environment())
                .containsOnlyKeys("PATH", "HOME", "USER", "LOGNAME")
                .containsEntry("USER", "podium-workload");
        assertThat(pb.directory().toPath()).isEqualTo(WORK.resolve("run"));
    }

    private static Isolation none() {
        return new Isolation(Kind.NONE, WORK, Optional.empty(), false, List.of(), "user namespaces are not available");
    }
}
