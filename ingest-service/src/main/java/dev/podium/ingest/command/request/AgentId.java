package dev.podium.ingest.command.request;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.podium.events.StreamId;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** An agent id that can name the agent's streams: the rule is {@link StreamId}'s, in one place. Null is valid. */
@Constraint(validatedBy = AgentId.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface AgentId {

    String message() default "must be a letter or digit, then letters, digits, '.', '_' or '-'; 128 characters at most";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<AgentId, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || StreamId.isValidAgentId(value);
        }
    }
}
