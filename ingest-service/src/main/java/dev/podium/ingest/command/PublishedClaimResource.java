package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.published.ClaimFile;
import dev.podium.events.published.ClaimFileException;
import dev.podium.events.published.PublishedClaim;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.store.Appended;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code POST /admin/published}: imports a claim file (the YAML text as the body, see {@link ClaimFile}) by appending one
 * PublishedClaimImported per claim to {@code published/<source>}, projections included, in one transaction. A claim's
 * event id is a UUIDv5 of its source and id, so a claim already imported is left as it is: importing a file twice
 * changes nothing. A corrected claim needs a new id.
 */
@Path("/admin/published")
public class PublishedClaimResource {

    private final EnlistedJdbc jdbc;
    private final CommandAppender appender;
    private final AdminCaller caller;

    /** What an import did: claims appended and claims already there. */
    private record Counts(int imported, int unchanged) {}

    public PublishedClaimResource(EnlistedJdbc jdbc, CommandAppender appender, AdminCaller caller) {
        this.jdbc = jdbc;
        this.appender = appender;
        this.caller = caller;
    }

    @POST
    @Consumes({"application/yaml", "application/x-yaml", "text/yaml", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public Response importFile(String yaml, @QueryParam("file") @DefaultValue("claims.yaml") String fileName) {
        List<PublishedClaim> claims;
        try {
            claims = ClaimFile.parse(fileName, yaml == null ? "" : yaml);
        } catch (ClaimFileException e) {
            throw new InvalidRequestException(e.violations().stream()
                    .map(v -> new FieldViolation(v.field(), v.reason()))
                    .toList());
        }
        Map<String, List<PublishedClaim>> bySource = new LinkedHashMap<>();
        claims.forEach(c ->
                bySource.computeIfAbsent(c.source(), s -> new ArrayList<>()).add(c));
        Counts counts = jdbc.call(c -> append(c, bySource, Instant.now()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("imported", counts.imported());
        out.put("unchanged", counts.unchanged());
        out.put("sources", List.copyOf(bySource.keySet()));
        return Response.ok(out).build();
    }

    /** Appends each source's claims that are not in the event store yet, on the stream of that source. */
    private Counts append(Connection c, Map<String, List<PublishedClaim>> bySource, Instant now) throws SQLException {
        int imported = 0;
        int unchanged = 0;
        for (Map.Entry<String, List<PublishedClaim>> source : bySource.entrySet()) {
            String stream = StreamId.published(source.getKey()).value();
            lockStream(c, stream);
            Set<UUID> present = presentEventIds(c, source.getValue());
            long seq = lastSeq(c, stream);
            List<Envelope> fresh = new ArrayList<>();
            for (PublishedClaim claim : source.getValue()) {
                if (present.contains(ClaimFile.eventId(claim))) {
                    unchanged++;
                } else {
                    fresh.add(ClaimFile.envelope(claim, ++seq, caller.tokenName(), now));
                }
            }
            for (Appended a : appender.append(c, fresh, caller.writer())) {
                if (!(a instanceof Appended.Inserted)) {
                    throw new IllegalStateException("claim import raced another import of " + stream + ": " + a);
                }
                imported++;
            }
        }
        return new Counts(imported, unchanged);
    }

    /** Two imports of the same source take turns, so their seqs never collide. */
    private static void lockStream(Connection c, String stream) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
            ps.setString(1, stream);
            ps.execute();
        }
    }

    private static Set<UUID> presentEventIds(Connection c, List<PublishedClaim> claims) throws SQLException {
        Set<UUID> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id FROM event_store WHERE event_id = ANY(?)")) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "uuid", claims.stream().map(ClaimFile::eventId).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return out;
    }

    private static long lastSeq(Connection c, String stream) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT coalesce(max(seq), 0) FROM event_store WHERE stream_id = ?")) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
