package dev.podium.ingest.command.problem;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** Every error answer of the admin API, as an RFC 9457 problem; no resource writes its own error body. */
public final class Problems {

    private static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPES = "https://podium.dev/problems/";

    private Problems() {}

    /** 400 listing every violation; the detail names the first, so a one-line reader sees where to start. */
    public static Response invalid(List<FieldViolation> violations) {
        FieldViolation first = violations.get(0);
        String detail = first.field() + ": " + first.message()
                + (violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : "");
        return answer(new Problem(
                        TYPES + "invalid-request",
                        "the request is not valid",
                        400,
                        detail,
                        List.copyOf(violations),
                        null,
                        null))
                .build();
    }

    public static Response notFound(String detail) {
        return answer(new Problem(TYPES + "not-found", "not found", 404, detail, null, null, null))
                .build();
    }

    public static Response conflict(String detail) {
        return answer(new Problem(
                        TYPES + "conflict",
                        "the request conflicts with the current state",
                        409,
                        detail,
                        null,
                        null,
                        null))
                .build();
    }

    public static Response unauthorized() {
        return answer(new Problem(
                        TYPES + "unauthorized",
                        "a named admin token is required",
                        401,
                        "send Authorization: Bearer <token> with one of podium.admin.tokens.*",
                        null,
                        null,
                        null))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"podium-admin\"")
                .build();
    }

    public static Response outOfScope(String detail, String requiredScope, String tokenScope) {
        return answer(new Problem(
                        TYPES + "admin-scope",
                        "the admin token's scope does not allow this",
                        403,
                        detail,
                        null,
                        requiredScope,
                        tokenScope))
                .build();
    }

    private static Response.ResponseBuilder answer(Problem problem) {
        return Response.status(problem.status()).type(MEDIA_TYPE).entity(problem);
    }
}
