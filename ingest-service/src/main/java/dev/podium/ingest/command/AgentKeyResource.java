package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.AgentKeyIssued;
import dev.podium.events.admin.AgentKeyRevoked;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.RegisterAgentRequest;
import dev.podium.ingest.command.request.RevokeKeyRequest;
import dev.podium.ingest.command.request.RotateKeyRequest;
import dev.podium.ingest.store.AgentKeyStore;
import io.agroal.api.AgroalDataSource;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
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

    private static final String UNIQUE_VIOLATION = "23505";

    private final AgroalDataSource dataSource;
    private final AgentKeyStore keys;
    private final CommandAppender appender;
    private final AdminCaller caller;
    private final CommandKey commandKey;

    public AgentKeyResource(
            AgroalDataSource dataSource,
            AgentKeyStore keys,
            CommandAppender appender,
            AdminCaller caller,
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
    public Response register(@NotNull(message = "required: a body with agent_id") @Valid RegisterAgentRequest body)
            throws SQLException {
        String pool = body.poolOrDefault();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (keys.hasActiveKey(c, body.agentId())) {
                    c.rollback();
                    return Problems.conflict(
                            "agent " + body.agentId() + " already has an active key; rotate it to get a new one");
                }
                AgentKeyStore.Issued issued = keys.issue(c, body.agentId(), pool, caller.tokenName());
                appendIssued(c, issued);
                c.commit();
                return issuedResponse(issued, pool, List.of());
            } catch (SQLException e) {
                c.rollback();
                if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    // agent_key_one_active: a concurrent request issued the agent's key first
                    return Problems.conflict("agent " + body.agentId() + " already has an active key");
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
    public Response rotate(@PathParam("agentId") String agentId, @Valid RotateKeyRequest body) throws SQLException {
        String newPool = body == null ? null : body.pool();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                String pool =
                        newPool != null ? newPool : keys.pool(c, agentId).orElse(RegisterAgentRequest.DEFAULT_POOL);
                List<String> retired = keys.retireActive(c, agentId);
                if (retired.isEmpty()) {
                    c.rollback();
                    return Problems.notFound("agent " + agentId + " has no active key to rotate");
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
    public Response revoke(@PathParam("keyId") String keyId, @Valid RevokeKeyRequest body) throws SQLException {
        String reason = body == null ? null : body.reason();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<String> status = keys.status(c, keyId);
                if (status.isEmpty()) {
                    c.rollback();
                    return Problems.notFound("no key " + keyId);
                }
                Optional<String> agent = keys.revoke(c, keyId, caller.tokenName());
                if (agent.isPresent()) {
                    appender.append(
                            c,
                            List.of(Envelope.of(
                                    UUID.randomUUID(),
                                    StreamId.admin(UUID.randomUUID()),
                                    1,
                                    null,
                                    Instant.now(),
                                    new AgentKeyRevoked(agent.get(), keyId, reason, caller.tokenName()))),
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
        appender.append(
                c,
                List.of(Envelope.of(
                        UUID.randomUUID(),
                        StreamId.admin(UUID.randomUUID()),
                        1,
                        null,
                        Instant.now(),
                        new AgentKeyIssued(issued.agentId(), issued.keyId(), caller.tokenName()))),
                caller.writer());
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
        return Response.status(Response.Status.CREATED)
                .header("Cache-Control", "no-store")
                .entity(out)
                .build();
    }
}
