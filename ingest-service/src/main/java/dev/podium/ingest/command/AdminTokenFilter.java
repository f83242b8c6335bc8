package dev.podium.ingest.command;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every path under {@code /admin} needs {@code Authorization: Bearer <token>} matching one of the named tokens of
 * {@code podium.admin.tokens.*} ({@link AdminTokens}); 401 otherwise, before anything else is looked at (pre-matching:
 * an unauthenticated caller learns nothing about routes or media types). A token whose scope does not include what the
 * request needs ({@link AdminScope#required}) gets 403 with a problem body (RFC 9457).
 */
@Provider
@PreMatching
public class AdminTokenFilter implements ContainerRequestFilter {

    private final AdminTokens tokens;
    private final AdminCaller caller;

    public AdminTokenFilter(AdminTokens tokens, AdminCaller caller) {
        this.tokens = tokens;
        this.caller = caller;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!(path.equals("/admin") || path.startsWith("/admin/") || path.equals("admin") || path.startsWith("admin/"))) {
            return;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        AdminTokens.Caller found = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? tokens.callerOf(header.substring(7).trim())
                : null;
        if (found == null) {
            request.abortWith(Response.status(Response.Status.UNAUTHORIZED)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"podium-admin\"")
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "a named admin token is required"))
                    .build());
            return;
        }
        String absolute = path.startsWith("/") ? path : "/" + path;
        AdminScope required = AdminScope.required(request.getMethod(), absolute);
        if (!found.scope().includes(required)) {
            String detail = "token '" + found.name() + "' has scope " + found.scope().text() + "; "
                    + request.getMethod() + " " + absolute + " needs " + required.text();
            Map<String, Object> problem = new LinkedHashMap<>();
            problem.put("type", "https://podium.dev/problems/admin-scope");
            problem.put("title", "the admin token's scope does not allow this");
            problem.put("status", 403);
            problem.put("detail", detail);
            problem.put("required_scope", required.text());
            problem.put("token_scope", found.scope().text());
            problem.put("error", detail);
            request.abortWith(Response.status(Response.Status.FORBIDDEN).type("application/problem+json")
                    .entity(problem).build());
            return;
        }
        caller.authenticated(found.name());
    }

}
