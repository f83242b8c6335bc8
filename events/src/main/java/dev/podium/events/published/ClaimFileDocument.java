package dev.podium.events.published;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.bind.AnyScalarAsText;
import dev.podium.events.bind.CrossField;
import dev.podium.events.bind.OneOf;
import dev.podium.events.bind.PlainText;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.validate.Limits;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A claim file as written (see {@link ClaimFile}), one record per level, each checked on its own by its constraints.
 * What spans records (a claim inheriting from the defaults, ratios naming figures, ids unique in the file) is
 * {@link ClaimFileReader}'s.
 */
record ClaimFileDocument(
        @NotNull(message = "missing") @PlainText @Pattern(regexp = SLUG, message = NOT_A_SLUG)
        String source,

        @NotNull(message = "missing") @PlainText String title,
        @PlainText String url,
        @Valid Defaults defaults,

        @NotEmpty(message = "must be a non-empty list")
        List<@NotNull(message = "must be a mapping") @Valid Claim> claims) {

    static final String SLUG = "[a-z0-9][a-z0-9._-]{0,127}";
    static final String NOT_A_SLUG = "'${validatedValue}' is not a slug (lower-case letters, digits, '.', '_', '-')";
    static final String NOT_A_DIRECTION = "'${validatedValue}' is not one of {allowed}";
    static final String COUNT = "must be a whole number, 0 or more";

    /** What every claim inherits, each field unless the claim states its own. */
    record Defaults(
            @PlainText String metric,
            @PlainText String unit,

            @OneOf(enumeration = Direction.class, message = NOT_A_DIRECTION)
            String direction,

            @PositiveOrZero(message = COUNT) Integer deviceCount,
            @Valid Key key) {

        static final Defaults NONE = new Defaults(null, null, null, null, null);
    }

    /** One figure or ratio claim. */
    @CrossField
    record Claim(
            @NotNull(message = "missing") @PlainText(max = 128) @Pattern(regexp = SLUG, message = NOT_A_SLUG)
            String id,

            @NotNull(message = "missing") @PlainText(max = Limits.MAX_TEXT_CHARS)
            String quote,

            @PlainText String device,
            @PlainText String deviceId,
            @PositiveOrZero(message = COUNT) Integer deviceCount,
            @Valid Key key,
            @PlainText String metric,
            @PlainText String unit,

            @OneOf(enumeration = Direction.class, message = NOT_A_DIRECTION)
            String direction,

            @Figure(notAvailable = true) JsonNode value,

            @Size(min = 2, max = 2, message = "must be a list of two numbers, [low, high]")
            List<@NotNull(message = "must be a number") @Figure Double> range,

            @StatedBound String bound,

            @Min(value = 0, message = DECIMALS) @Max(value = 12, message = DECIMALS)
            Integer decimals,

            Boolean approximate,
            @Valid Ratio ratio)
            implements CrossField.Checked {

        static final String DECIMALS = "must be a whole number from 0 to 12";

        @Override
        public void check(CrossField.Report report) {
            if (deviceId != null) {
                if (DeviceAliases.byId(deviceId).isEmpty()) {
                    report.add("deviceId", "'" + deviceId + "' is not a canonical device id");
                }
            } else if (device != null && DeviceAliases.resolve(device).isEmpty()) {
                report.add("device", "'" + device + "' is not a known device (see DeviceAliases)");
            }
            List<String> stated = new ArrayList<>();
            if (value != null) {
                stated.add("value");
            }
            if (range != null) {
                stated.add("range");
            }
            if (bound != null) {
                stated.add("bound");
            }
            if (stated.isEmpty()) {
                report.add("value", "missing: state one of value, range or bound");
            } else if (stated.size() > 1) {
                report.add("value", "states " + String.join(" and ", stated) + ": state only one");
            }
            if (range != null
                    && range.size() == 2
                    && isFigure(range.get(0))
                    && isFigure(range.get(1))
                    && range.get(0) > range.get(1)) {
                report.add("range", "low " + range.get(0) + " is above high " + range.get(1));
            }
            if (approximate != null && decimals == null) {
                report.add("decimals", "missing: approximate needs the number of decimals stated");
            }
        }

        private static boolean isFigure(Double d) {
            return d != null && Figure.Rule.problem(d) == null;
        }
    }

    /** What a ratio claim compares, and the figures of this file it is computed from, when the publication gave them. */
    @CrossField
    record Ratio(
            @NotNull(message = "missing") @PlainText String baseline,
            @PlainText(max = 128) String numerator,
            @PlainText(max = 128) String denominator,

            @NotNull(message = "missing") @OneOf(enumeration = RatioBasis.RatioForm.class, message = NOT_A_DIRECTION)
            String form)
            implements CrossField.Checked {

        @Override
        public void check(CrossField.Report report) {
            if ((numerator == null) != (denominator == null)) {
                report.add(
                        null,
                        "names " + (numerator == null ? "a denominator" : "a numerator")
                                + " without the other: name both figures or neither");
            }
        }
    }

    /** A comparison key, or the part of one that a claim states over the defaults' key; an extra set to null drops it. */
    @CrossField
    record Key(
            @PlainText String benchmark,
            @PlainText String benchmarkVersion,
            @PlainText String scenario,
            @PlainText String model,
            @PlainText String precision,
            @PositiveOrZero(message = COUNT) Integer perDeviceBatchSize,
            @PositiveOrZero(message = COUNT) Integer totalAccelerators,
            @PositiveOrZero(message = COUNT) Integer inputSize,
            @AnyScalarAsText Map<String, String> extra)
            implements CrossField.Checked {

        static final Key NONE = new Key(null, null, null, null, null, null, null, null, null);

        @Override
        public void check(CrossField.Report report) {
            if (extra == null) {
                return;
            }
            extra.keySet().stream()
                    .filter(ComparisonKey.FIXED_DIMENSIONS::contains)
                    .sorted()
                    .forEach(name ->
                            report.add("extra", "extra parameter '" + name + "' has the name of a fixed dimension"));
        }
    }
}
