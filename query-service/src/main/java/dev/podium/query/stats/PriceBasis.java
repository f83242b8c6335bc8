package dev.podium.query.stats;

/**
 * What a device-hour costs whoever runs the work: renting it from a cloud at its on-demand price ({@code
 * podium.query.prices}), or owning it, at its amortised price per device-hour ({@code podium.query.owned-prices}) plus the
 * electricity its measured energy costs ({@code podium.query.electricity-per-kwh}).
 */
public enum PriceBasis {
    ON_DEMAND("cloud on-demand"),
    OWNED("own hardware, amortised");

    private final String label;

    PriceBasis(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
