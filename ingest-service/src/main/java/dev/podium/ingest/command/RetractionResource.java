package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.RetractRequest;
import dev.podium.ingest.projection.Projections;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /admin/runs/{id}/retract}: appends {@code ResultRetracted} on a new {@code admin/<uuid>} stream with the
 * admin token's name as actor; the projections in the same transaction take the run off leaderboards and keep the
 * reason for its page. A run already retracted keeps its first retraction and nothing is appended.
 */
@Path("/admin/runs")
@Produces(MediaType.APPLICATION_JSON)
public class RetractionResource {

    private final EnlistedJdbc jdbc;
    private final CommandAppender appender;
    private final AdminCaller caller;
    private final EventCodec codec = new EventCodec();

    public RetractionResource(EnlistedJdbc jdbc, CommandAppender appender, AdminCaller caller) {
        this.jdbc = jdbc;
        this.appender = appender;
        this.caller = caller;
    }

    /** 200 with the retraction (new or the one already there); 400 for a missing or bad reason; 404 for no such run. */
    @POST
    @Path("/{id}/retract")
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response retract(
            @PathParam("id") String id,
            @NotNull(message = "required: a body with the reason") @Valid RetractRequest body) {
        Optional<UUID> runId = canonicalUuid(id);
        if (runId.isEmpty()) {
            return noRun(id);
        }
        // Microseconds, as PostgreSQL keeps them: the retraction time is the same live and after a rebuild.
        Envelope event = Envelope.of(
                TimeOrderedIds.next(),
                StreamId.admin(TimeOrderedIds.next()),
                1,
                null,
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                new ResultRetracted(runId.get(), body.reason(), caller.tokenName()));
        if (codec.decode(codec.encode(event)) instanceof Decoded.Rejected rejected) {
            throw new InvalidRequestException(rejected.violations().stream()
                    .map(v -> new FieldViolation(v.field().replaceFirst("^payload\\.", ""), v.reason()))
                    .toList());
        }
        return jdbc.call(c -> {
            Projections.lockShared(c);
            if (!lockRun(c, runId.get())) {
                return noRun(id);
            }
            Optional<Map<String, Object>> earlier = retraction(c, runId.get());
            if (earlier.isEmpty()) {
                appender.append(c, List.of(event), caller.writer());
            }
            Map<String, Object> out = retraction(c, runId.get()).orElseThrow();
            out.put("already_retracted", earlier.isPresent());
            return Response.ok(out).build();
        });
    }

    /** Locks the run's row, so that two retractions of one run at once append one event; false when there is no run. */
    private static boolean lockRun(Connection c, UUID runId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM proj_run WHERE run_id = ? FOR UPDATE")) {
            ps.setObject(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Optional<Map<String, Object>> retraction(Connection c, UUID runId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT reason, actor, retracted_at FROM proj_retraction WHERE run_id = ?")) {
            ps.setObject(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("run_id", runId);
                out.put("retracted", true);
                out.put("reason", rs.getString(1));
                out.put("actor", rs.getString(2));
                out.put("retracted_at", rs.getTimestamp(3).toInstant().toString());
                return Optional.of(out);
            }
        }
    }

    private static Response noRun(String id) {
        return Problems.notFound("no run " + id + ": nothing to retract");
    }

    /** A run id as stream ids write it (lower-case, canonical); anything else names no run. */
    static Optional<UUID> canonicalUuid(String id) {
        try {
            UUID u = UUID.fromString(id);
            return u.toString().equalsIgnoreCase(id) ? Optional.of(u) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
