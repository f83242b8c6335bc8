package dev.podium.agent.job;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.podium.events.validate.Limits;
import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The value of a parameter, a matrix point or an environment variable: one scalar (as its text), not null, at most
 * {@link Limits#MAX_STRING_CHARS} characters, as the event contract holds it. Each rule reports in its own words.
 */
@NotNull(message = "must be a single value (string, number or boolean)")
@Size(max = Limits.MAX_STRING_CHARS, message = "at most {max} characters")
@Constraint(validatedBy = {})
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface SingleValue {

    String message() default "must be a single value of at most 1024 characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
