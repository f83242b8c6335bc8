package dev.podium.ingest.command.request;

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
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A campaign's secrets within bounds that let them always fit, sealed, in one grant: at most {@code count} of them, and
 * at most {@code bytes} of names and UTF-8 values in all. Null is valid.
 */
@Constraint(validatedBy = SecretsFit.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface SecretsFit {

    int count();

    int bytes();

    String message() default "at most {count} values of {bytes} bytes in all";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<SecretsFit, Map<String, String>> {

        private int count;
        private int bytes;

        @Override
        public void initialize(SecretsFit bounds) {
            count = bounds.count();
            bytes = bounds.bytes();
        }

        @Override
        public boolean isValid(Map<String, String> secrets, ConstraintValidatorContext context) {
            if (secrets == null) {
                return true;
            }
            long total = 0;
            for (Map.Entry<String, String> e : secrets.entrySet()) {
                total += e.getKey().length()
                        + (e.getValue() == null ? 0 : e.getValue().getBytes(StandardCharsets.UTF_8).length);
            }
            return secrets.size() <= count && total <= bytes;
        }
    }
}
