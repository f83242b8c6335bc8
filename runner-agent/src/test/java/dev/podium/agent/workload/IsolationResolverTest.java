package dev.podium.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.agent.config.SettingsException;
import dev.podium.agent.workload.Isolation.Kind;
import dev.podium.agent.workload.IsolationResolver.Agent;
import dev.podium.agent.workload.IsolationResolver.Mode;
import dev.podium.agent.workload.IsolationResolver.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent decides at start, with the host's answers given: {@code id} knows some users, and {@code unshare}
 * works or not. The commands the probes run are those of {@link Isolation#command}, which {@link IsolationTest} pins.
 */
class IsolationResolverTest {

    @TempDir
    Path dir;

    /**
     * The workload user: any as root, else this test's own user, so that handing it the run directory needs no
     * privilege (the agent refuses root itself as the workload user).
     */
    static final boolean ROOT = owner("unix:uid") == 0;

    static final int UID = ROOT ? 998 : owner("unix:uid");
    static final int GID = ROOT ? 997 : owner("unix:gid");

    Path keyFile;
    Path home;
    final List<List<String>> ran = new ArrayList<>();

    @BeforeEach
    void layout() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(dir.resolve("etc"));
        keyFile = Files.writeString(dir.resolve("etc/agent.key"), "");
        home = Files.createDirectories(dir.resolve("home"));
    }

    @Test
    void asRootWithTheWorkloadUserWorkloadsRunAsItInNamespacesHidingTheKeysDirectoryAndTheHome() throws Exception {
        Isolation iso = resolver(host(true, true)).resolve(settings(Mode.AUTO), agent(true));
        assertThat(iso.kind()).isEqualTo(Kind.USER);
        assertThat(iso.user()).hasValue(new Isolation.WorkloadUser("podium-workload", UID, GID));
        assertThat(iso.namespaces()).isTrue();
        assertThat(iso.hidden()).containsExactly(dir.resolve("etc").toRealPath(), home.toRealPath());
        assertThat(iso.runDirectory()).isDirectory();
        assertThat(ran).anySatisfy(c -> assertThat(c).containsSubsequence("setpriv", "sh", "-c"));
    }

    @Test
    void aDirectoryAboveTheHomeThatOthersMayNotPassIsCoveredTooSoThatTheWorkloadUserFindsItsWay() throws Exception {
        Path closed = Files.createDirectories(dir.resolve("root"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        Agent agent = new Agent(
                keyFile, closed.resolve("podium/.podium/agent"), closed.resolve("podium/.podium/agent/workload"), true);
        Isolation iso = resolver(host(true, true)).resolve(settings(Mode.AUTO), agent);
        assertThat(iso.hidden()).containsExactly(dir.resolve("etc").toRealPath(), closed.toRealPath());
        Isolation withoutNamespaces = resolver(host(true, false)).resolve(settings(Mode.AUTO), agent);
        assertThat(withoutNamespaces.namespaces()).isFalse();
    }

    @Test
    void asRootWithoutTheWorkloadUserAutoRefusesCommandJobsAndSaysHowToCreateIt() {
        Isolation iso = resolver(host(false, true)).resolve(settings(Mode.AUTO), agent(true));
        assertThat(iso.kind()).isEqualTo(Kind.NONE);
        assertThat(iso.refusal(new ExternalCommand(List.of("true"))))
                .hasValueSatisfying(r -> assertThat(r).contains("podium-workload does not exist", "useradd --system"));
        assertThat(iso.describe()).contains("command jobs are refused");
    }

    @Test
    void userAskedForByNameStopsTheStartWhereItCannotWork() {
        assertThatThrownBy(() -> resolver(host(false, true)).resolve(settings(Mode.USER), agent(true)))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("podium-workload does not exist");
        assertThatThrownBy(() -> resolver(host(true, true)).resolve(settings(Mode.USER), agent(false)))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("needs the agent to run as root");
    }

    @Test
    void aWorkloadUserThatCannotReachItsDirectoryStopsTheStart() {
        IsolationResolver r = resolver(c -> !c.contains("setpriv") && !c.get(0).equals("unshare") || isId(c));
        assertThatThrownBy(() -> r.resolve(settings(Mode.AUTO), agent(true)))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("cannot reach or write")
                .hasMessageContaining("--home that others may traverse");
    }

    @Test
    void notAsRootAutoTakesNamespacesWhereUnshareWorksAndElseRefusesCommandJobs() {
        assertThat(resolver(host(true, true))
                        .resolve(settings(Mode.AUTO), agent(false))
                        .kind())
                .isEqualTo(Kind.NAMESPACE);
        Isolation none = resolver(host(true, false)).resolve(settings(Mode.AUTO), agent(false));
        assertThat(none.kind()).isEqualTo(Kind.NONE);
        assertThat(none.reason()).contains("user namespaces");
        assertThatThrownBy(() -> resolver(host(true, false)).resolve(settings(Mode.NAMESPACE), agent(false)))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("--isolation namespace");
    }

    @Test
    void offRunsNoProbe() {
        assertThat(resolver(host(true, true))
                        .resolve(settings(Mode.OFF), agent(true))
                        .kind())
                .isEqualTo(Kind.OFF);
        assertThat(ran).isEmpty();
    }

    @Test
    void aKeyFileInTheRootDirectoryOrInsideTheWorkloadDirectoryCannotBeHidden() throws Exception {
        Agent rootKey = new Agent(Path.of("/agent.key"), home, home.resolve("workload"), false);
        assertThatThrownBy(() -> IsolationResolver.hidden(settings(Mode.AUTO), rootKey, rootKey.workDir()))
                .hasMessageContaining("is the root directory")
                .hasMessageContaining("a directory of its own");
        Path work = Files.createDirectories(home.resolve("workload"));
        Path inside =
                Files.writeString(Files.createDirectories(work.resolve("keys")).resolve("agent.key"), "");
        Agent keyInWork = new Agent(inside, dir.resolve("elsewhere"), work, false);
        assertThatThrownBy(() -> IsolationResolver.hidden(settings(Mode.AUTO), keyInWork, work))
                .hasMessageContaining("inside the workload directory");
    }

    @Test
    void hiddenPathsInsideAnotherAreCoveredOnceAndMissingOnesSkipped() throws Exception {
        Path inner = Files.createDirectories(home.resolve("extra"));
        Settings s = new Settings(Mode.AUTO, "podium-workload", List.of(inner, dir.resolve("missing")));
        assertThat(IsolationResolver.hidden(s, agent(false), home.resolve("workload")))
                .containsExactly(dir.resolve("etc").toRealPath(), home.toRealPath());
    }

    @Test
    void hostileUserNamesAndModesAreRefused() {
        assertThatThrownBy(() -> resolver(host(true, true))
                        .resolve(new Settings(Mode.AUTO, "x; rm -rf /", List.of()), agent(true)))
                .hasMessageContaining("is not a user name");
        assertThatThrownBy(() -> Mode.parse("sandbox")).hasMessageContaining("auto, user, namespace or off");
        assertThat(Mode.parse(" Namespace ")).isEqualTo(Mode.NAMESPACE);
    }

    @Test
    void theRootUserIsNoWorkloadUser() {
        IsolationResolver r = new IsolationResolver((c, d) -> {
            ran.add(c);
            return isId(c) ? Optional.of("0\n") : Optional.of("");
        });
        assertThatThrownBy(() -> r.resolve(new Settings(Mode.AUTO, "root", List.of()), agent(true)))
                .hasMessageContaining("is root");
    }

    private static int owner(String attribute) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Settings settings(Mode mode) {
        return new Settings(mode, "podium-workload", List.of());
    }

    private Agent agent(boolean root) {
        return new Agent(keyFile, home, home.resolve("workload"), root);
    }

    /** A host where {@code id} knows podium-workload (or not) and unshare works (or not). */
    private static Predicate<List<String>> host(boolean userExists, boolean unshareWorks) {
        return c -> isId(c) ? userExists : !c.get(0).equals("unshare") || unshareWorks;
    }

    private static boolean isId(List<String> c) {
        return c.get(0).equals("id");
    }

    private IsolationResolver resolver(Predicate<List<String>> succeeds) {
        return new IsolationResolver((command, directory) -> {
            ran.add(command);
            if (!succeeds.test(command)) {
                return Optional.empty();
            }
            return Optional.of(isId(command) ? (command.get(1).equals("-u") ? UID : GID) + "\n" : "");
        });
    }
}
