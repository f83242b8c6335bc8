package dev.podium.events.bind;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The rules of a record that relate its components to each other ("a command only with adapter command", "low not above
 * high"), written beside the record as {@link Checked#check} and reported each at the component it is about. Rules of
 * one component are its own annotations. Null is valid.
 */
@Constraint(validatedBy = CrossField.Validator.class)
@Documented
@Target(TYPE)
@Retention(RUNTIME)
public @interface CrossField {

    String message() default "is not consistent";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** A record whose components are checked against each other. */
    interface Checked {
        void check(Report report);
    }

    /** Where a broken rule is reported: a component, by its Java name (null for the record itself), or a key in it. */
    interface Report {
        void add(String component, String reason);

        void add(String component, String key, String reason);
    }

    class Validator implements ConstraintValidator<CrossField, Checked> {

        @Override
        public boolean isValid(Checked value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            boolean[] valid = {true};
            value.check(new Report() {
                @Override
                public void add(String component, String reason) {
                    valid[0] = false;
                    var v = context.buildConstraintViolationWithTemplate(ConstraintMessages.literal(reason));
                    if (component == null) {
                        v.addConstraintViolation();
                    } else {
                        v.addPropertyNode(component).addConstraintViolation();
                    }
                }

                @Override
                public void add(String component, String key, String reason) {
                    valid[0] = false;
                    context.buildConstraintViolationWithTemplate(ConstraintMessages.literal(reason))
                            .addPropertyNode(component)
                            .addBeanNode()
                            .inIterable()
                            .atKey(key)
                            .addConstraintViolation();
                }
            });
            return valid[0];
        }
    }
}
