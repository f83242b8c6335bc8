package dev.podium.agent.job;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Locale;

/** A progress bar on a terminal, plain log lines otherwise (CI logs, files, pipes). */
public final class Progress {

    private final PrintStream out;
    private final boolean terminal;
    private long lastLine;

    public Progress(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    public static Progress forConsole() {
        return new Progress(System.err, System.console() != null && !"dumb".equals(System.getenv("TERM")));
    }

    public static Progress silent() {
        return new Progress(new PrintStream(OutputStream.nullOutputStream()), false);
    }

    public synchronized void line(String message) {
        if (terminal) {
            out.print("\r\u001B[2K");
        }
        out.println(message);
    }

    public synchronized void step(String label, long step, long total) {
        if (terminal) {
            int width = 30;
            int filled = total > 0 ? (int) Math.min(width, step * width / total) : 0;
            out.print(String.format(
                    Locale.ROOT,
                    "\r\u001B[2K%s [%s%s] %d/%d",
                    label,
                    "#".repeat(filled),
                    " ".repeat(width - filled),
                    step,
                    total));
            out.flush();
        } else if (step == total || System.nanoTime() - lastLine > 10_000_000_000L) {
            lastLine = System.nanoTime();
            out.println(label + " step " + step + "/" + total);
        }
    }
}
