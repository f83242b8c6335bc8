package dev.podium.agent.workload;

import dev.podium.agent.config.SettingsException;
import dev.podium.agent.workload.Isolation.Kind;
import dev.podium.agent.workload.Isolation.WorkloadUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Decides at the agent's start how its workloads are isolated ({@link Isolation}), trying what this host allows: an
 * isolation asked for by name that does not work here stops the start ({@link SettingsException}); {@code auto} takes
 * the best that works and says so.
 */
public final class IsolationResolver {

    /** What the operator asked for ({@code --isolation}). */
    public enum Mode {
        AUTO,
        USER,
        NAMESPACE,
        OFF;

        public static Mode parse(String text) {
            try {
                return valueOf(text.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new SettingsException("--isolation must be auto, user, namespace or off, was '" + text + "'");
            }
        }
    }

    /** The operator's settings: the mode, the workload user's name, and paths to hide beyond the agent's own. */
    public record Settings(Mode mode, String userName, List<Path> hide) {
        public static final String DEFAULT_USER = "podium-workload";
    }

    /** What the agent's own files are, so that workloads do not see them. */
    public record Agent(Path keyFile, Path home, Path workDir, boolean root) {}

    /** Runs a probe: a command in a working directory, with an empty environment. */
    @FunctionalInterface
    public interface Commands {
        /** The command's standard output when it exits 0 within a few seconds, else empty. */
        Optional<String> run(List<String> command, Path directory);
    }

    private final Commands commands;

    public IsolationResolver(Commands commands) {
        this.commands = commands;
    }

    /** Probes run on this host, with only a system PATH in their environment. */
    public static IsolationResolver onThisHost() {
        return new IsolationResolver((command, directory) -> {
            try {
                ProcessBuilder pb = new ProcessBuilder(command)
                        .directory(directory.toFile())
                        .redirectError(ProcessBuilder.Redirect.DISCARD);
                pb.environment().clear();
                pb.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
                Process p = pb.start();
                p.getOutputStream().close();
                String out = new String(p.getInputStream().readNBytes(64 * 1024), StandardCharsets.UTF_8);
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return Optional.empty();
                }
                return p.exitValue() == 0 ? Optional.of(out) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
    }

    /** Whether this process runs as root (its effective uid owns {@code /proc/self}). */
    public static boolean runningAsRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    public Isolation resolve(Settings settings, Agent agent) {
        Path workDir = agent.workDir().toAbsolutePath().normalize();
        Path run = createRunDirectory(workDir);
        if (settings.mode() == Mode.OFF) {
            return Isolation.off(workDir);
        }
        boolean asUser = settings.mode() == Mode.USER || (settings.mode() == Mode.AUTO && agent.root());
        if (asUser) {
            return asUser(settings, agent, workDir, run);
        }
        return inNamespaces(settings, agent, workDir, run);
    }

    private Isolation asUser(Settings settings, Agent agent, Path workDir, Path run) {
        if (!agent.root()) {
            throw new SettingsException("--isolation user needs the agent to run as root (setpriv changes the uid);"
                    + " as another user, --isolation namespace or auto");
        }
        Optional<WorkloadUser> user = lookup(settings.userName());
        if (user.isEmpty()) {
            String why = "the agent runs as root and the workload user " + settings.userName() + " does not exist"
                    + " (create it: useradd --system --no-create-home --shell /usr/sbin/nologin --groups video "
                    + settings.userName() + "; or name another with --workload-user; --isolation off runs"
                    + " workloads as root)";
            if (settings.mode() == Mode.USER) {
                throw new SettingsException(why);
            }
            return none(workDir, why);
        }
        giveRunDirectory(run, user.get());
        boolean namespaces = succeeds(
                List.of(
                        "unshare",
                        "--pid",
                        "--fork",
                        "--kill-child",
                        "--mount-proc",
                        "--mount",
                        "--propagation",
                        "private",
                        "true"),
                run);
        List<Path> hidden = hidden(settings, agent, workDir);
        if (namespaces) {
            hidden = outermost(concat(hidden, closedAncestors(workDir)));
        }
        Isolation isolation = new Isolation(Kind.USER, workDir, user, namespaces, hidden, null);
        if (!succeeds(isolation.command(List.of("sh", "-c", "test -w . && test -x " + quote(workDir))), run)) {
            throw new SettingsException(
                    "the workload user " + user.get().name() + " cannot reach or write "
                            + isolation.runDirectory()
                            + ": a directory above it is closed to other users (such as /root), and this host does not"
                            + " let the agent cover it; give the agent a --home that others may traverse (e.g. /var/lib/podium-agent)");
        }
        return isolation;
    }

    private Isolation inNamespaces(Settings settings, Agent agent, Path workDir, Path run) {
        List<Path> hidden = hidden(settings, agent, workDir);
        Isolation isolation = new Isolation(Kind.NAMESPACE, workDir, Optional.empty(), true, hidden, null);
        if (succeeds(isolation.command(List.of("true")), run)) {
            return isolation;
        }
        String why = "this host does not let the agent's user make user namespaces (unshare --user --pid --mount"
                + " failed: see the sysctls kernel.unprivileged_userns_clone and user.max_user_namespaces, or the"
                + " container's seccomp profile)";
        if (settings.mode() == Mode.NAMESPACE) {
            throw new SettingsException("--isolation namespace: " + why);
        }
        return none(workDir, why);
    }

    private boolean succeeds(List<String> command, Path directory) {
        return commands.run(command, directory).isPresent();
    }

    private static Isolation none(Path workDir, String why) {
        return new Isolation(Kind.NONE, workDir, Optional.empty(), false, List.of(), why);
    }

    /**
     * The key file's directory, the agent's home and the configured paths, as real paths, those inside another left
     * out; none may hold the workload directory's contents or be the root.
     */
    static List<Path> hidden(Settings settings, Agent agent, Path workDir) {
        List<Path> wanted = new ArrayList<>();
        if (agent.keyFile() != null) {
            wanted.add(agent.keyFile().toAbsolutePath().getParent());
        }
        wanted.add(agent.home());
        wanted.addAll(settings.hide());
        Path work = real(workDir);
        List<Path> real = new ArrayList<>();
        for (Path p : wanted) {
            if (!Files.exists(p)) {
                continue;
            }
            Path r = real(p);
            if (r.getParent() == null) {
                throw new SettingsException("cannot hide " + p + " from workloads: it is the root directory"
                        + (agent.keyFile() != null ? "; keep the key file in a directory of its own" : ""));
            }
            if (r.startsWith(work)) {
                throw new SettingsException("cannot hide " + p + " from workloads: it is inside the workload directory "
                        + workDir + "; keep the key file and the agent's state outside it");
            }
            real.add(r);
        }
        return outermost(real);
    }

    /**
     * The directories above the workload directory that other users may not pass (such as /root): covered too where
     * namespaces allow, the workload user then finds its way to its directory through the covers alone.
     */
    static List<Path> closedAncestors(Path workDir) {
        List<Path> closed = new ArrayList<>();
        for (Path p = real(workDir).getParent(); p != null && p.getParent() != null; p = p.getParent()) {
            try {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    closed.add(p);
                }
            } catch (IOException | UnsupportedOperationException e) {
                // unknown: the start's probe as the workload user finds out
            }
        }
        return closed;
    }

    /** The paths that are not inside another of them, each once, in order. */
    private static List<Path> outermost(List<Path> paths) {
        return paths.stream()
                .distinct()
                .filter(p -> paths.stream().noneMatch(q -> !q.equals(p) && p.startsWith(q)))
                .sorted()
                .toList();
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private Optional<WorkloadUser> lookup(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,31}")) {
            throw new SettingsException("--workload-user '" + name + "' is not a user name");
        }
        Optional<Integer> uid = number(List.of("id", "-u", name));
        Optional<Integer> gid = number(List.of("id", "-g", name));
        if (uid.isEmpty() || gid.isEmpty()) {
            return Optional.empty();
        }
        if (uid.get() == 0) {
            throw new SettingsException("--workload-user " + name + " is root: name an unprivileged user");
        }
        return Optional.of(new WorkloadUser(name, uid.get(), gid.get()));
    }

    private Optional<Integer> number(List<String> command) {
        return commands.run(command, Path.of("/"))
                .map(String::strip)
                .filter(s -> s.matches("\\d{1,10}"))
                .map(Integer::valueOf);
    }

    /** The workload directory stays the agent's (it writes the shipped scripts there); {@code run/} is the user's. */
    private static void giveRunDirectory(Path run, WorkloadUser user) {
        try {
            Files.setAttribute(run, "unix:uid", user.uid());
            Files.setAttribute(run, "unix:gid", user.gid());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + run + " to the workload user " + user.name(), e);
        }
    }

    private static Path createRunDirectory(Path workDir) {
        try {
            return Files.createDirectories(workDir.resolve("run"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the workload directory " + workDir.resolve("run"), e);
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    private static String quote(Path p) {
        return "'" + p.toString().replace("'", "'\\''") + "'";
    }
}
