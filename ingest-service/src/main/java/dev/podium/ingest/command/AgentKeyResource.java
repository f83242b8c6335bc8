package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.AgentKeyIssued;
import dev.podium.events.admin.AgentKeyRevoked;
import dev.podium.ingest.store.AgentKeyStore;
import io.agroal.api.AgroalDataSource;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Agent keys: issue (the secret is in this response and nowhere else, ever), rotate (the old key is retired and keeps
 * verifying what it signed), revoke (the key verifies nothing from now on). Each appends AgentKeyIssued or
 * AgentKeyRevoked, with the admin token's name as actor, in the same transaction as the key change. Every issued key
 * comes with the command side's public key ({@code command_public_key}, for the key file's {@code command.public.key}),
 * which agents need to verify what they read on podium.jobs; {@code GET /admin/command-key} shows it alone, for key files
 * issued before records there were signed.
 */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
public class AgentKeyResource {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final String UNIQUE_VIOLATION = "23505";
    private static final Pattern AGENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private static final Pattern POOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final String DEFAULT_POOL = "default";

    /** Body of {@code POST /admin/agents}; {@code pool} (bound to the key) defaults to the agent's default pool. */
    public record RegisterAgent(@com.fasterxml.jackson.annotation.JsonProperty("agent_id") String agentId, String pool) {
    }

    /** Body of {@code POST /admin/agents/{id}/keys/rotate}; optional: without a pool the new key keeps the old one's. */
    public record RotateKey(String pool) {
    }

    /** Body of {@code POST /admin/keys/{keyId}/revoke}; optional. */
    public record RevokeKey(String reason) {
    }

    private final AgroalDataSource dataSource;
    private final AgentKeyStore keys;
    private final CommandAppender appender;
    private final AdminCaller caller;
    private final CommandKey commandKey;

    public AgentKeyResource(AgroalDataSource dataSource, AgentKeyStore keys, CommandAppender appender, AdminCaller caller,
            CommandKey commandKey) {
        this.dataSource = dataSource;
        this.keys = keys;
        this.appender = appender;
        this.caller = caller;
        this.commandKey = commandKey;
    }

    @GET
    @Path("/command-key")
    public Map<String, String> commandKey() {
        return Map.of("command_public_key", commandKey.publicKeyText());
    }

    @POST
    @Path("/agents")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response register(RegisterAgent body) throws SQLException {
        if (body == null || body.agentId() == null || !AGENT_ID.matcher(body.agentId()).matches()) {
            return error(Response.Status.BAD_REQUEST, "agent_id must match " + AGENT_ID.pattern());
        }
        String pool = body.pool() == null ? DEFAULT_POOL : body.pool();
        if (!POOL.matcher(pool).matches()) {
            return error(Response.Status.BAD_REQUEST, "pool must match " + POOL.pattern());
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (keys.hasActiveKey(c, body.agentId())) {
                    c.rollback();
                    return error(Response.Status.CONFLICT, "agent " + body.agentId()
                            + " already has an active key; rotate it to get a new one");
                }
                AgentKeyStore.Issued issued = keys.issue(c, body.agentId(), pool, caller.tokenName());
                appendIssued(c, issued);
                c.commit();
                return issuedResponse(issued, pool, List.of());
            } catch (SQLException e) {
                c.rollback();
                if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    // agent_key_one_active: a concurrent request issued the agent's key first
                    return error(Response.Status.CONFLICT, "agent " + body.agentId() + " already has an active key");
                }
                throw e;
            } catch (RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    @POST
    @Path("/agents/{agentId}/keys/rotate")
    public Response rotate(@PathParam("agentId") String agentId, String body) throws SQLException {
        String newPool;
        try {
            newPool = body == null || body.isBlank() ? null : JSON.readValue(body, RotateKey.class).pool();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return error(Response.Status.BAD_REQUEST, "the body, when given, must be {\"pool\": \"...\"}");
        }
        if (newPool != null && !POOL.matcher(newPool).matches()) {
            return error(Response.Status.BAD_REQUEST, "pool must match " + POOL.pattern());
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                String pool = newPool != null ? newPool : keys.pool(c, agentId).orElse(DEFAULT_POOL);
                List<String> retired = keys.retireActive(c, agentId);
                if (retired.isEmpty()) {
                    c.rollback();
                    return error(Response.Status.NOT_FOUND, "agent " + agentId + " has no active key to rotate");
                }
                AgentKeyStore.Issued issued = keys.issue(c, agentId, pool, caller.tokenName());
                appendIssued(c, issued);
                c.commit();
                return issuedResponse(issued, pool, retired);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    @POST
    @Path("/keys/{keyId}/revoke")
    public Response revoke(@PathParam("keyId") String keyId, String body) throws SQLException {
        String reason;
        try {
            reason = body == null || body.isBlank() ? null : JSON.readValue(body, RevokeKey.class).reason();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return error(Response.Status.BAD_REQUEST, "the body, when given, must be {\"reason\": \"...\"}");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<String> status = keys.status(c, keyId);
                if (status.isEmpty()) {
                    c.rollback();
                    return error(Response.Status.NOT_FOUND, "no key " + keyId);
                }
                Optional<String> agent = keys.revoke(c, keyId, caller.tokenName());
                if (agent.isPresent()) {
                    appender.append(c, List.of(Envelope.of(UUID.randomUUID(), StreamId.admin(UUID.randomUUID()), 1, null,
                            Instant.now(), new AgentKeyRevoked(agent.get(), keyId, reason, caller.tokenName()))),
                            caller.writer());
                }
                c.commit();
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("key_id", keyId);
                out.put("status", "revoked");
                return Response.ok(out).build();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private void appendIssued(Connection c, AgentKeyStore.Issued issued) throws SQLException {
        appender.append(c, List.of(Envelope.of(UUID.randomUUID(), StreamId.admin(UUID.randomUUID()), 1, null,
                Instant.now(), new AgentKeyIssued(issued.agentId(), issued.keyId(), caller.tokenName()))), caller.writer());
    }

    private Response issuedResponse(AgentKeyStore.Issued issued, String pool, List<String> retired) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("agent_id", issued.agentId());
        out.put("key_id", issued.keyId());
        out.put("secret", issued.secret());
        out.put("command_public_key", commandKey.publicKeyText());
        out.put("pool", pool);
        if (!retired.isEmpty()) {
            out.put("retired_key_ids", retired);
        }
        out.put("note", "the secret is shown once; store it in the agent's key file now");
        return Response.status(Response.Status.CREATED).header("Cache-Control", "no-store").entity(out).build();
    }

    static Response error(Response.Status status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(Map.of("error", message)).build();
    }
}
