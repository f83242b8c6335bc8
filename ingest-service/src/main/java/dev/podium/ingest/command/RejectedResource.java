package dev.podium.ingest.command;

import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.request.RedriveRequest;
import dev.podium.ingest.dlq.Redriver;
import dev.podium.ingest.store.RejectedRows;
import io.agroal.api.AgroalDataSource;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The refused records ({@code rejected_event}): {@code GET /admin/rejected} lists them with their reasons, a page at a
 * time, each record shown as a prefix, its size and a hash; {@code POST /admin/rejected/redrive} feeds chosen ones back
 * into ingestion ({@link Redriver}).
 */
@Path("/admin/rejected")
@Produces(MediaType.APPLICATION_JSON)
public class RejectedResource {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 200;
    private static final int MAX_FILTER = 200;

    private final AgroalDataSource dataSource;
    private final RejectedRows rows;
    private final Redriver redriver;

    public RejectedResource(AgroalDataSource dataSource, RejectedRows rows, Redriver redriver) {
        this.dataSource = dataSource;
        this.rows = rows;
        this.redriver = redriver;
    }

    /**
     * Refusals in id order after {@code after}, at most {@code limit} ({@value #DEFAULT_LIMIT}, up to
     * {@value #MAX_LIMIT}); {@code reason} keeps those whose reason starts with it, {@code topic} those of one topic.
     * {@code next_after} is the {@code after} of the next page, null on the last.
     */
    @GET
    public Response list(
            @QueryParam("reason") String reason,
            @QueryParam("topic") String topic,
            @QueryParam("after") String after,
            @QueryParam("limit") String limit)
            throws SQLException {
        List<FieldViolation> problems = new ArrayList<>();
        long afterId = number(after, 0, Long.MAX_VALUE, 0, "after", problems);
        int pageSize = (int) number(limit, 1, MAX_LIMIT, DEFAULT_LIMIT, "limit", problems);
        for (String[] f : new String[][] {{"reason", reason}, {"topic", topic}}) {
            if (f[1] != null && (f[1].length() > MAX_FILTER || f[1].indexOf('\u0000') >= 0)) {
                problems.add(new FieldViolation(f[0], "at most " + MAX_FILTER + " characters, no NUL"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        RejectedRows.Filter filter = new RejectedRows.Filter(nonBlank(topic), nonBlank(reason));
        List<RejectedRows.Listed> page;
        try (Connection c = dataSource.getConnection()) {
            page = rows.page(c, filter, afterId, pageSize);
        }
        List<Map<String, Object>> out = new ArrayList<>(page.size());
        for (RejectedRows.Listed r : page) {
            out.add(listed(r));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rejected", out);
        body.put(
                "next_after",
                page.size() == pageSize ? page.get(page.size() - 1).id() : null);
        return Response.ok(body).build();
    }

    /**
     * Body {@code {"ids": [1, 2, ...]}} (at most {@value RedriveRequest#MAX_IDS}): each row is redriven and its outcome
     * listed, in the order given, a repeated id once. Redriving again is harmless: what was stored is a duplicate now.
     */
    @POST
    @Path("/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response redrive(@NotNull(message = "required: a body with the ids") @Valid RedriveRequest body)
            throws SQLException {
        Set<Long> ids = new LinkedHashSet<>(body.ids());
        List<Map<String, Object>> out = new ArrayList<>(ids.size());
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (long id : ids) {
            Redriver.Redriven r = redriver.redrive(id);
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", id);
            one.put("outcome", r.outcome().label());
            if (r.reason() != null) {
                one.put("reason", r.reason());
            }
            out.add(one);
            counts.merge(r.outcome().label(), 1, Integer::sum);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("outcomes", counts);
        result.put("redriven", out);
        return Response.ok(result).build();
    }

    private static Map<String, Object> listed(RejectedRows.Listed r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("topic", r.topic());
        m.put("partition", r.partition());
        m.put("offset", r.offset());
        m.put("reason", r.reason());
        m.put("key_id", r.keyId());
        m.put("event_id", r.eventId());
        m.put("stream_id", r.streamId());
        m.put("rejected_at", r.rejectedAt() == null ? null : r.rejectedAt().toString());
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("bytes", r.recordBytes());
        record.put("kept_bytes", r.keptBytes());
        record.put("sha256_of_kept", r.sha256());
        byte[] prefix = r.prefix() == null ? new byte[0] : r.prefix();
        Optional<String> text = utf8(prefix);
        record.put("prefix_bytes", prefix.length);
        if (text.isPresent()) {
            record.put("prefix", text.get());
        } else {
            record.put("prefix_hex", HexFormat.of().formatHex(prefix));
        }
        record.put("redrivable", r.keptBytes() > 0 && r.keptBytes() == r.recordBytes());
        m.put("record", record);
        if (r.redrivenAt() != null) {
            Map<String, Object> redrive = new LinkedHashMap<>();
            redrive.put("at", r.redrivenAt().toString());
            redrive.put("outcome", r.redriveOutcome());
            redrive.put("reason", r.redriveReason());
            m.put("last_redrive", redrive);
        }
        return m;
    }

    /**
     * The prefix as text when it is UTF-8 (an incomplete character at its very end, where the prefix cut it, is left
     * out), else nothing and the caller shows hex: a binary record never turns into replacement characters that hide
     * what it was.
     */
    static Optional<String> utf8(byte[] prefix) {
        CharBuffer out = CharBuffer.allocate(prefix.length);
        CoderResult result = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(prefix), out, false);
        return result.isError() ? Optional.empty() : Optional.of(out.flip().toString());
    }

    private static long number(
            String text, long min, long max, long absent, String name, List<FieldViolation> problems) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        try {
            long v = Long.parseLong(text.trim());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(new FieldViolation(name, "an integer from " + min + " to " + max + ", got '" + clip(text) + "'"));
        return absent;
    }

    private static Optional<String> nonBlank(String s) {
        return s == null || s.isBlank() ? Optional.empty() : Optional.of(s);
    }

    private static String clip(String s) {
        return s == null ? "" : s.length() > 100 ? s.substring(0, 100) + "…" : s;
    }
}
