package dev.podium.ingest.command.problem;

import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where an invalid request becomes an answer: Bean Validation's violations (a {@code @Valid} body, or a
 * request validated by {@link dev.podium.ingest.command.request.RequestBinder}) and the binding problems Jackson found,
 * each a 400 {@code application/problem+json} with every violation listed.
 */
public class ProblemMapper {

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e) {
        return Problems.invalid(e.violations());
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e) {
        return Problems.invalid(FieldViolation.all(e.getConstraintViolations()));
    }
}
