package dev.podium.ingest.history;

/** A step that had no row before, with the noise σ of its history now (null below two points). */
public record FoundStep(ChangePointRow step, Double sigma) {

    /** The step's size in units of σ; infinite on a history without noise. */
    public double sigmas() {
        double size = Math.abs(step.levelAfter() - step.levelBefore());
        return sigma == null || sigma == 0 ? Double.POSITIVE_INFINITY : size / sigma;
    }
}
