package dev.podium.ingest.command;

import dev.podium.ingest.command.problem.Problems;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

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
        if (!(path.equals("/admin")
                || path.startsWith("/admin/")
                || path.equals("admin")
                || path.startsWith("admin/"))) {
            return;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        AdminTokens.Caller found = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? tokens.callerOf(header.substring(7).trim())
                : null;
        if (found == null) {
            request.abortWith(Problems.unauthorized());
            return;
        }
        String absolute = path.startsWith("/") ? path : "/" + path;
        AdminScope required = AdminScope.required(request.getMethod(), absolute);
        if (!found.scope().includes(required)) {
            request.abortWith(Problems.outOfScope(
                    "token '" + found.name() + "' has scope " + found.scope().text() + "; " + request.getMethod() + " "
                            + absolute + " needs " + required.text(),
                    required.text(),
                    found.scope().text()));
            return;
        }
        caller.authenticated(found.name());
    }
}
