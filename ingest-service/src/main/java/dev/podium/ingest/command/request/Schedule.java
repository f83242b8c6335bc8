package dev.podium.ingest.command.request;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.podium.ingest.command.CampaignPlan;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** How often a campaign repeats, as {@link CampaignPlan#period} reads it. Null or blank is valid: it does not repeat. */
@Constraint(validatedBy = Schedule.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface Schedule {

    String message() default
            "must be hourly, nightly, daily, weekly or an ISO-8601 duration of a second or more, such as " + "PT24H";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<Schedule, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            try {
                CampaignPlan.period(value);
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
    }
}
