package dev.podium.ingest.projection;

/**
 * How a stored series is thinned: of its {@code samples} so far (numbered in arrival order from 0), the points kept are
 * those whose number is a multiple of {@code stride}, a power of two. Adding samples doubles the stride until at most
 * {@link #MAX_POINTS} are kept, so a series keeps between half that and that many points, spread evenly over it, and a
 * batch's cost is what it brings plus, at each doubling, the one pass that drops every other kept point.
 */
record Downsampling(long samples, long stride) {

    /** Points kept per run and series kind: what a run page draws. */
    static final int MAX_POINTS = 2000;

    static final Downsampling NONE = new Downsampling(0, 1);

    /** After {@code count} more samples. */
    Downsampling plus(long count) {
        long total = samples + count;
        long s = stride;
        while (kept(total, s) > MAX_POINTS) {
            s *= 2;
        }
        return new Downsampling(total, s);
    }

    /** Whether the sample numbered {@code index} is kept. */
    boolean keeps(long index) {
        return index % stride == 0;
    }

    /** Whether going from {@code before} dropped points kept until then. */
    boolean thinned(Downsampling before) {
        return stride != before.stride;
    }

    private static long kept(long samples, long stride) {
        return (samples + stride - 1) / stride;
    }
}
