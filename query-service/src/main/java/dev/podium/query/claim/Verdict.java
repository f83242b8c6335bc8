package dev.podium.query.claim;

/** The outcome of checking a published ratio claim against the figures it names. */
public enum Verdict {
    HOLDS("holds"),
    DOES_NOT_HOLD("does not hold"),
    CANNOT_BE_CHECKED("cannot be checked");

    private final String words;

    Verdict(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
