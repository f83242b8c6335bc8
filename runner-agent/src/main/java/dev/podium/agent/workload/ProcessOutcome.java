package dev.podium.agent.workload;

/** How a workload process ended, with its output (stdout, bounded) and the tail of stdout and stderr together. */
public record ProcessOutcome(
        Integer exitCode, boolean timedOut, boolean cancelled, String stdout, String tail, String startError) {

    public boolean ok() {
        return startError == null && !timedOut && !cancelled && exitCode != null && exitCode == 0;
    }
}
