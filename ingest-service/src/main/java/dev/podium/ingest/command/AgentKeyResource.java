package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.admin.AgentKeyIssued;
import dev.podium.events.admin.AgentKeyRevoked;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.RegisterAgentRequest;
import dev.podium.ingest.command.request.RevokeKeyRequest;
import dev.podium.ingest.command.request.RotateKeyRequest;
import dev.podium.ingest.entity.AgentKeyEntity;
import dev.podium.ingest.identity.IdentityReconciler;
import dev.podium.ingest.store.AgentKeyStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
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
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Agent keys: issue (the secret is in this response and nowhere else, ever), rotate (the old key is retired and keeps
 * verifying what it signed), revoke (the key verifies nothing from now on). Each appends AgentKeyIssued or
 * AgentKeyRevoked, with the admin token's name as actor, in the same transaction as the key change. Every issued key
 * comes with the command side's public key ({@code command_public_key}, for the key file's {@code command.public.key}),
 * which agents need to verify what they read on podium.jobs; {@code GET /admin/command-key} shows it alone, for key files
 * issued before records there were signed. With agent identities on ({@code podium.ingest.agent-identities.enabled}) a
 * key also comes with the login of its own Kafka identity ({@code kafka_username}, {@code kafka_password}), created once
 * the issue commits and removed once a revocation does ({@link IdentityReconciler}).
 */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
public class AgentKeyResource {

    private static final String UNIQUE_VIOLATION = "23505";

    private final EnlistedJdbc jdbc;
    private final AgentKeyStore keys;
    private final CommandAppender appender;
    private final AdminCaller caller;
    private final CommandKey commandKey;
    private final IdentityReconciler identities;
    private final jakarta.enterprise.event.Event<IdentityReconciler.KeyIssued> issuedKeys;
    private final jakarta.enterprise.event.Event<IdentityReconciler.KeyRevoked> revokedKeys;

    public AgentKeyResource(
            EnlistedJdbc jdbc,
            AgentKeyStore keys,
            CommandAppender appender,
            AdminCaller caller,
            CommandKey commandKey,
            IdentityReconciler identities,
            jakarta.enterprise.event.Event<IdentityReconciler.KeyIssued> issuedKeys,
            jakarta.enterprise.event.Event<IdentityReconciler.KeyRevoked> revokedKeys) {
        this.jdbc = jdbc;
        this.keys = keys;
        this.appender = appender;
        this.caller = caller;
        this.commandKey = commandKey;
        this.identities = identities;
        this.issuedKeys = issuedKeys;
        this.revokedKeys = revokedKeys;
    }

    @GET
    @Path("/command-key")
    public Map<String, String> commandKey() {
        return Map.of("command_public_key", commandKey.publicKeyText());
    }

    /** The transaction is this method's own so that a key issued concurrently first (a unique violation) is a 409. */
    @POST
    @Path("/agents")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response register(@NotNull(message = "required: a body with agent_id") @Valid RegisterAgentRequest body) {
        String pool = body.poolOrDefault();
        try {
            return QuarkusTransaction.requiringNew().call(() -> {
                if (AgentKeyEntity.hasActive(body.agentId())) {
                    return Problems.conflict(
                            "agent " + body.agentId() + " already has an active key; rotate it to get a new one");
                }
                AgentKeyStore.Issued issued = keys.issue(body.agentId(), pool, caller.tokenName());
                appendIssued(issued);
                return issuedResponse(issued, pool, List.of());
            });
        } catch (RuntimeException e) {
            if (uniqueViolation(e)) {
                // agent_key_one_active: a concurrent request issued the agent's key first
                return Problems.conflict("agent " + body.agentId() + " already has an active key");
            }
            throw e;
        }
    }

    @POST
    @Path("/agents/{agentId}/keys/rotate")
    @Transactional
    public Response rotate(@PathParam("agentId") String agentId, @Valid RotateKeyRequest body) {
        String newPool = body == null ? null : body.pool();
        String pool =
                newPool != null ? newPool : AgentKeyEntity.poolOf(agentId).orElse(RegisterAgentRequest.DEFAULT_POOL);
        List<AgentKeyEntity> active = AgentKeyEntity.lockActive(agentId);
        if (active.isEmpty()) {
            return Problems.notFound("agent " + agentId + " has no active key to rotate");
        }
        Instant now = Instant.now();
        for (AgentKeyEntity key : active) {
            key.status = AgentKeyEntity.RETIRED;
            key.retiredAt = now;
        }
        // The retirements reach the database before the new key, so agent_key_one_active holds at every statement.
        AgentKeyEntity.flush();
        AgentKeyStore.Issued issued = keys.issue(agentId, pool, caller.tokenName());
        appendIssued(issued);
        return issuedResponse(issued, pool, active.stream().map(k -> k.keyId).toList());
    }

    @POST
    @Path("/keys/{keyId}/revoke")
    @Transactional
    public Response revoke(@PathParam("keyId") String keyId, @Valid RevokeKeyRequest body) {
        String reason = body == null ? null : body.reason();
        AgentKeyEntity key = AgentKeyEntity.findById(keyId, LockModeType.PESSIMISTIC_WRITE);
        if (key == null) {
            return Problems.notFound("no key " + keyId);
        }
        if (!AgentKeyEntity.REVOKED.equals(key.status)) {
            key.status = AgentKeyEntity.REVOKED;
            key.revokedAt = Instant.now();
            key.revokedBy = caller.tokenName();
            append(new AgentKeyRevoked(key.agentId, keyId, reason, caller.tokenName()));
        }
        // also for a key revoked before: its identity may have outlived a broker that was down then
        revokedKeys.fire(new IdentityReconciler.KeyRevoked(keyId));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key_id", keyId);
        out.put("status", "revoked");
        return Response.ok(out).build();
    }

    private void appendIssued(AgentKeyStore.Issued issued) {
        append(new AgentKeyIssued(issued.agentId(), issued.keyId(), caller.tokenName()));
        issuedKeys.fire(new IdentityReconciler.KeyIssued(issued.keyId(), issued.kafkaPassword()));
    }

    /** Appends the admin event on a connection enlisted in this transaction, after the key change is flushed. */
    private void append(Event event) {
        Envelope env = Envelope.of(
                TimeOrderedIds.next(), StreamId.admin(TimeOrderedIds.next()), 1, null, Instant.now(), event);
        jdbc.call(c -> appender.append(c, List.of(env), caller.writer()));
    }

    private static boolean uniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private Response issuedResponse(AgentKeyStore.Issued issued, String pool, List<String> retired) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("agent_id", issued.agentId());
        out.put("key_id", issued.keyId());
        out.put("secret", issued.secret());
        out.put("command_public_key", commandKey.publicKeyText());
        out.put("pool", pool);
        if (identities.enabled()) {
            out.put("kafka_username", issued.keyId());
            out.put("kafka_password", issued.kafkaPassword());
        }
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
