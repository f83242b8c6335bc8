package dev.podium.ingest.history;

/**
 * A step that had no row before, with the noise σ of its history now: positive, since the detector finds no step in a
 * history of fewer than two points or without noise.
 */
public record FoundStep(ChangePointRow step, double sigma) {

    /** The step's size in units of σ. */
    public double sigmas() {
        return Math.abs(step.levelAfter() - step.levelBefore()) / sigma;
    }
}
