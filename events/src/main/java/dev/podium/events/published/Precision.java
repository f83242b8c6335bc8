package dev.podium.events.published;

import dev.podium.events.validate.NonNegative;

/**
 * The precision a value was stated with: {@code decimals} digits after the point ("1.3x" has 1, "2.23x" has 2, "+3%" has
 * 0), and whether it was hedged ("about"), which widens the rule to plus or minus one unit in the last digit.
 */
public record Precision(@NonNegative int decimals, boolean approximate) {}
