package dev.podium.agent.job;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.bind.ConstraintMessages;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * A command as a spec writes it: one string, split as a shell splits plain words and quotes ({@link CommandLine}), or a
 * list of arguments, each a single value; not empty either way. Null is valid.
 */
@Constraint(validatedBy = CommandArguments.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface CommandArguments {

    String message() default "must be a string or a list of arguments";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<CommandArguments, JsonNode> {

        @Override
        public boolean isValid(JsonNode value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            if (!value.isTextual() && !value.isArray()) {
                return false;
            }
            for (JsonNode a : value) {
                if (!a.isValueNode() || a.isNull()) {
                    return ConstraintMessages.fail(context, "list items must be strings");
                }
            }
            List<String> args;
            try {
                args = arguments(value);
            } catch (JobSpecException e) {
                return ConstraintMessages.fail(context, e.violations().get(0).reason());
            }
            return !args.isEmpty() && !args.get(0).isBlank() || ConstraintMessages.fail(context, "must not be empty");
        }

        /** The arguments of a command this validator passed. */
        static List<String> arguments(JsonNode command) {
            if (command.isTextual()) {
                return CommandLine.split(command.asText());
            }
            List<String> out = new ArrayList<>();
            command.forEach(a -> out.add(a.asText()));
            return out;
        }
    }
}
