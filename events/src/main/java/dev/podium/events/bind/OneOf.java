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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * A string that is one of {@code value} or of the names of {@code enumeration}'s constants, in that order; the message
 * may name them all as {@code {allowed}} ("a, b"). Null is valid.
 */
@Constraint(validatedBy = OneOf.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface OneOf {

    String[] value() default {};

    Class<? extends Enum<?>>[] enumeration() default {};

    String message() default "must be one of {allowed}, was '${validatedValue}'";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<OneOf, String> {

        private final List<String> allowed = new ArrayList<>();

        @Override
        public void initialize(OneOf oneOf) {
            allowed.addAll(Arrays.asList(oneOf.value()));
            for (Class<? extends Enum<?>> e : oneOf.enumeration()) {
                Arrays.stream(e.getEnumConstants()).map(Enum::name).forEach(allowed::add);
            }
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null || allowed.contains(value)) {
                return true;
            }
            context.unwrap(HibernateConstraintValidatorContext.class)
                    .addMessageParameter("allowed", String.join(", ", allowed));
            return false;
        }
    }
}
