package dev.podium.agent.job;

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
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A regular expression that compiles and has a group to capture a number with. Null is valid. */
@Constraint(validatedBy = CapturingPattern.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface CapturingPattern {

    String message() default "needs a capturing group (named 'value' or the first group) for the number";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<CapturingPattern, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            try {
                return Pattern.compile(value).matcher("").groupCount() >= 1;
            } catch (PatternSyntaxException e) {
                return ConstraintMessages.fail(context, "invalid regular expression: " + e.getDescription());
            }
        }
    }
}
