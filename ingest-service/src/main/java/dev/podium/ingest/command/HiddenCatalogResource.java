package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.admin.CatalogEntryHidden;
import dev.podium.events.admin.CatalogKind;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.CatalogEntryRequest;
import dev.podium.ingest.projection.Projections;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /admin/catalog/hide} and {@code /admin/catalog/show}: append {@code CatalogEntryHidden} on a new
 * {@code admin/<uuid>} stream with the admin token's name as actor; the projection in the same transaction updates
 * {@code proj_hidden_catalog}, which query-service leaves out of every public list. An entry already in the state asked
 * for stays as it is and nothing is appended. {@code GET /admin/catalog/hidden} lists what is hidden now.
 */
@Path("/admin/catalog")
@Produces(MediaType.APPLICATION_JSON)
public class HiddenCatalogResource {

    /** The most hidden entries one listing returns. */
    static final int MAX_LISTED = 1000;

    private final EnlistedJdbc jdbc;
    private final CommandAppender appender;
    private final AdminCaller caller;
    private final EventCodec codec = new EventCodec();

    public HiddenCatalogResource(EnlistedJdbc jdbc, CommandAppender appender, AdminCaller caller) {
        this.jdbc = jdbc;
        this.appender = appender;
        this.caller = caller;
    }

    /** 200 with the entry's state; 400 for a bad kind, name or reason; 404 for an entry there is none of. */
    @POST
    @Path("/hide")
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response hide(
            @NotNull(message = "required: a body with kind, name and reason") @Valid CatalogEntryRequest body) {
        return change(body, true);
    }

    /** As {@link #hide}, putting the entry back on the public pages. */
    @POST
    @Path("/show")
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response show(
            @NotNull(message = "required: a body with kind, name and reason") @Valid CatalogEntryRequest body) {
        return change(body, false);
    }

    /** Every entry hidden now, the latest first: at most {@value #MAX_LISTED}. */
    @GET
    @Path("/hidden")
    @Transactional
    public List<Map<String, Object>> hidden() {
        return jdbc.call(c -> {
            List<Map<String, Object>> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT kind, name, hidden, reason, actor, changed_at FROM proj_hidden_catalog WHERE hidden "
                            + "ORDER BY position DESC LIMIT ?")) {
                ps.setInt(1, MAX_LISTED);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(entry(rs));
                    }
                }
            }
            return out;
        });
    }

    private Response change(CatalogEntryRequest body, boolean hidden) {
        CatalogKind kind = body.catalogKind();
        // Microseconds, as PostgreSQL keeps them: the time is the same live and after a rebuild.
        Envelope event = Envelope.of(
                TimeOrderedIds.next(),
                StreamId.admin(TimeOrderedIds.next()),
                1,
                null,
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                new CatalogEntryHidden(kind, body.name(), hidden, body.reason(), caller.tokenName()));
        if (codec.decode(codec.encode(event)) instanceof Decoded.Rejected rejected) {
            throw new InvalidRequestException(rejected.violations().stream()
                    .map(v -> new FieldViolation(v.field().replaceFirst("^payload\\.", ""), v.reason()))
                    .toList());
        }
        return jdbc.call(c -> {
            Projections.lockShared(c);
            if (!lockEntry(c, kind, body.name())) {
                return Problems.notFound(
                        "no " + noun(kind) + " " + body.name() + ": nothing to " + (hidden ? "hide" : "show"));
            }
            Optional<Map<String, Object>> before = state(c, kind, body.name());
            boolean unchanged = before.map(b -> b.get("hidden").equals(hidden)).orElse(!hidden);
            if (!unchanged) {
                appender.append(c, List.of(event), caller.writer());
            }
            Map<String, Object> out = state(c, kind, body.name()).orElseGet(() -> neverHidden(kind, body.name()));
            out.put("changed", !unchanged);
            return Response.ok(out).build();
        });
    }

    /**
     * Locks the entry's catalogue row, so that two requests for one entry at once append at most one event; false when
     * there is no such entry.
     */
    private static boolean lockEntry(Connection c, CatalogKind kind, String name) throws SQLException {
        String sql = switch (kind) {
            case BENCHMARK -> "SELECT 1 FROM proj_benchmark WHERE benchmark = ? FOR UPDATE";
            case KEY -> "SELECT 1 FROM proj_comparison_key WHERE key_id = ? FOR UPDATE";
            case DEVICE -> "SELECT 1 FROM proj_device WHERE device_id = ? FOR UPDATE";
        };
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Optional<Map<String, Object>> state(Connection c, CatalogKind kind, String name)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT kind, name, hidden, reason, actor, changed_at FROM proj_hidden_catalog WHERE kind = ? AND name = ?")) {
            ps.setString(1, kind.text());
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(entry(rs)) : Optional.empty();
            }
        }
    }

    private static Map<String, Object> entry(ResultSet rs) throws SQLException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", rs.getString("kind"));
        out.put("name", rs.getString("name"));
        out.put("hidden", rs.getBoolean("hidden"));
        out.put("reason", rs.getString("reason"));
        out.put("actor", rs.getString("actor"));
        out.put("changed_at", rs.getTimestamp("changed_at").toInstant().toString());
        return out;
    }

    /** An entry no admin ever hid: shown, with no reason or actor. */
    private static Map<String, Object> neverHidden(CatalogKind kind, String name) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", kind.text());
        out.put("name", name);
        out.put("hidden", false);
        return out;
    }

    private static String noun(CatalogKind kind) {
        return switch (kind) {
            case BENCHMARK -> "benchmark";
            case KEY -> "comparison key";
            case DEVICE -> "device";
        };
    }
}
