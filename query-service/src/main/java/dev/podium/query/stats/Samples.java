package dev.podium.query.stats;

/**
 * The values a ratio interval is computed from, for one side (a device under a key, or a framework version): the
 * per-repetition values of its runs while it has one or two runs, and the runs' means once it has
 * {@link #RUN_MEANS_FROM} or more. Repetitions of one run share that run's conditions (host, day, thermal state); pooling
 * the repetitions of many runs would count run-to-run variation as if it were repetition noise and make the interval too
 * narrow, so with enough runs each run counts once.
 */
public final class Samples {

    public static final int RUN_MEANS_FROM = 3;

    private Samples() {}
}
