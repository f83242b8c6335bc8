package dev.podium.events.published;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.bind.ConstraintMessages;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A figure a publication stated: a finite number, 0 or more; with {@code notAvailable}, also {@code n/a} (a table cell
 * without a figure). Null is valid.
 */
@Constraint(validatedBy = {Figure.OfNumber.class, Figure.OfNode.class})
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface Figure {

    boolean notAvailable() default false;

    String message() default "must be a finite number, 0 or more";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** What is wrong with {@code d} as a figure, or null. */
    final class Rule {
        private Rule() {}

        static String problem(double d) {
            if (!Double.isFinite(d)) {
                return "must be finite, was " + d;
            }
            return d < 0 ? "must not be negative, was " + d : null;
        }

        /** True for the text of a cell without a figure, {@code n/a} in any case. */
        static boolean isNotAvailable(JsonNode v) {
            return v.isTextual() && v.asText().trim().equalsIgnoreCase("n/a");
        }
    }

    class OfNumber implements ConstraintValidator<Figure, Double> {

        @Override
        public boolean isValid(Double value, ConstraintValidatorContext context) {
            String problem = value == null ? null : Rule.problem(value);
            return problem == null || ConstraintMessages.fail(context, problem);
        }
    }

    class OfNode implements ConstraintValidator<Figure, JsonNode> {

        private boolean notAvailable;

        @Override
        public void initialize(Figure figure) {
            notAvailable = figure.notAvailable();
        }

        @Override
        public boolean isValid(JsonNode value, ConstraintValidatorContext context) {
            if (value == null || notAvailable && Rule.isNotAvailable(value)) {
                return true;
            }
            if (!value.isNumber()) {
                return ConstraintMessages.fail(
                        context, "must be a number" + (value.isTextual() ? ", was '" + value.asText() + "'" : ""));
            }
            String problem = Rule.problem(value.asDouble());
            return problem == null || ConstraintMessages.fail(context, problem);
        }
    }
}
