package dev.podium.ingest.command.request;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.Map;

/**
 * No secret of a campaign is also in its spec's plain {@code environment}, where its value would travel in clear in
 * every JobRequested. Each such secret is named, never its value.
 */
@Constraint(validatedBy = NoSecretInClear.Validator.class)
@Documented
@Target(TYPE)
@Retention(RUNTIME)
public @interface NoSecretInClear {

    String message() default "also in spec.environment, where it would be sent in clear";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<NoSecretInClear, NewCampaignRequest> {

        @Override
        public boolean isValid(NewCampaignRequest request, ConstraintValidatorContext context) {
            Map<String, String> environment =
                    request.spec() == null ? null : request.spec().environment();
            if (environment == null || request.secrets() == null) {
                return true;
            }
            boolean valid = true;
            context.disableDefaultConstraintViolation();
            for (String name : request.secrets().keySet()) {
                if (environment.containsKey(name)) {
                    valid = false;
                    context.buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
                            .addPropertyNode("secrets")
                            .addBeanNode()
                            .inIterable()
                            .atKey(name)
                            .addConstraintViolation();
                }
            }
            return valid;
        }
    }
}
