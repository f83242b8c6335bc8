package dev.podium.events.published;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.podium.events.bind.ConstraintMessages;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A bound as a publication states it, an operator and a finite number: {@code "> 3"}, {@code ">= 2.5"}. Null is valid. */
@Constraint(validatedBy = StatedBound.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface StatedBound {

    String message() default "must be an operator and a number, such as \"> 3\"";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<StatedBound, String> {

        private static final Pattern BOUND = Pattern.compile("\\s*(>=|<=|>|<)\\s*([-+0-9.eE]+)\\s*");

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            Matcher m = BOUND.matcher(value);
            if (!m.matches()) {
                return false;
            }
            double x;
            try {
                x = Double.parseDouble(m.group(2));
            } catch (NumberFormatException e) {
                return ConstraintMessages.fail(context, "'" + m.group(2) + "' is not a number");
            }
            return Double.isFinite(x) || ConstraintMessages.fail(context, "must be finite, was " + m.group(2));
        }

        /** The bound {@code text} states; only for text this validator passed. */
        static ClaimValue.Bound parse(String text) {
            Matcher m = BOUND.matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a bound: " + text);
            }
            ClaimValue.BoundOperator op = switch (m.group(1)) {
                case ">" -> ClaimValue.BoundOperator.GREATER_THAN;
                case ">=" -> ClaimValue.BoundOperator.AT_LEAST;
                case "<" -> ClaimValue.BoundOperator.LESS_THAN;
                default -> ClaimValue.BoundOperator.AT_MOST;
            };
            return new ClaimValue.Bound(op, Double.parseDouble(m.group(2)));
        }
    }
}
