package dev.podium.ingest.command;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;

/**
 * Every path under {@code /admin} needs {@code Authorization: Bearer <token>} matching one of the named tokens of
 * {@code podium.admin.tokens.*} ({@link AdminTokens}); 401 otherwise, before anything else is looked at (pre-matching:
 * an unauthenticated caller learns nothing about routes or media types).
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
        String name = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? tokens.nameOf(header.substring(7).trim())
                : null;
        if (name == null) {
            request.abortWith(Response.status(Response.Status.UNAUTHORIZED)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"podium-admin\"")
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "a named admin token is required"))
                    .build());
            return;
        }
        caller.authenticated(name);
    }

}
