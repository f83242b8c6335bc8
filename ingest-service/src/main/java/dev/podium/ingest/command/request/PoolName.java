package dev.podium.ingest.command.request;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Pattern;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** The name of an agent pool, which a key is bound to and a job is requested for. Null is valid: say {@code @NotNull}. */
@Pattern(regexp = PoolName.PATTERN)
@ReportAsSingleViolation
@Constraint(validatedBy = {})
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface PoolName {

    String PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

    String message() default "must be a letter or digit, then letters, digits, '.', '_' or '-'; 64 characters at most";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
