package dev.podium.events.bind;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** A list that holds no value twice; the message names the first repeated one. Null is valid. */
@Constraint(validatedBy = Distinct.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface Distinct {

    String message() default "lists a value twice";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<Distinct, List<?>> {

        @Override
        public boolean isValid(List<?> values, ConstraintValidatorContext context) {
            if (values == null) {
                return true;
            }
            Set<Object> seen = new HashSet<>();
            for (Object v : values) {
                if (v != null && !seen.add(v)) {
                    return ConstraintMessages.fail(context, "lists '" + Objects.toString(v) + "' twice");
                }
            }
            return true;
        }
    }
}
