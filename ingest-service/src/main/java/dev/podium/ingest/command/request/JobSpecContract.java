package dev.podium.ingest.command.request;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.bind.ConstraintMessages;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.EnvelopeValidator;
import dev.podium.events.validate.Violation;
import dev.podium.ingest.command.CampaignPlan;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.List;

/**
 * A job spec that meets the event contract, checked by the contract's own validator ({@link EnvelopeValidator}, reading
 * the {@code @Nullable}, {@code @NonNegative} and {@code @Text} annotations of {@link JobSpec} and the {@code Limits}), so
 * that the rules of a spec are written once, in {@code events}, and reported here field by field. The maps a campaign
 * may leave out count as empty, as {@link CampaignPlan#withDefaults} has them. Null is valid.
 */
@Constraint(validatedBy = JobSpecContract.Validator.class)
@Documented
@Target({FIELD, METHOD, PARAMETER})
@Retention(RUNTIME)
public @interface JobSpecContract {

    String message() default "breaks the event contract";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<JobSpecContract, JobSpec> {

        private static final ObjectMapper JSON = EventCodec.newMapper();
        private static final EnvelopeValidator CONTRACT = new EnvelopeValidator();

        @Override
        public boolean isValid(JobSpec spec, ConstraintValidatorContext context) {
            if (spec == null) {
                return true;
            }
            List<Violation> broken =
                    CONTRACT.validateRecord(JSON.valueToTree(CampaignPlan.withDefaults(spec)), JobSpec.class);
            if (broken.isEmpty()) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            for (Violation v : broken) {
                // The contract names the field as JSON already: kept as a key, it is not renamed.
                context.buildConstraintViolationWithTemplate(ConstraintMessages.literal(v.reason()))
                        .addBeanNode()
                        .inIterable()
                        .atKey(v.field())
                        .addConstraintViolation();
            }
            return false;
        }
    }
}
