package dev.podium.bench;

import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The benchmark commands; {@code bench/bench.sh} (behind {@code ./podium bench}) starts what they measure. */
@Command(
        name = "podium-bench",
        mixinStandardHelpOptions = true,
        subcommands = {
            IngestBench.class,
            ReplayBench.Load.class,
            ReplayBench.Run.class,
            AgentOverhead.class,
            PageBench.Load.class,
            PageBench.Run.class,
            PageAb.class
        })
public final class BenchMain implements Runnable {

    /** Held so that the level sticks: the Kafka clients log every connection at INFO. */
    private static final Logger KAFKA = Logger.getLogger("org.apache.kafka");

    public static void main(String[] args) {
        KAFKA.setLevel(Level.WARNING);
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
