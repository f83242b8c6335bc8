package dev.podium.events.bind;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.podium.events.validate.Limits;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Text a file states: not blank, without the NUL character (PostgreSQL refuses it in text and jsonb), and at most
 * {@code max} characters, the message saying how many it has. Null is valid.
 */
@Constraint(validatedBy = PlainText.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface PlainText {

    int max() default Limits.MAX_STRING_CHARS;

    String message() default "is not plain text";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<PlainText, String> {

        private int max;

        @Override
        public void initialize(PlainText text) {
            max = text.max();
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            if (value.isBlank()) {
                return ConstraintMessages.fail(context, "must not be blank");
            }
            if (value.indexOf('\u0000') >= 0) {
                return ConstraintMessages.fail(context, "contains the NUL character \\u0000");
            }
            if (value.length() > max) {
                return ConstraintMessages.fail(
                        context, "has " + value.length() + " characters, over the limit of " + max);
            }
            return true;
        }
    }
}
