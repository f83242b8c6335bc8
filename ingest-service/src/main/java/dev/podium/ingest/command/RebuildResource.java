package dev.podium.ingest.command;

import dev.podium.ingest.projection.Rebuilder;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * {@code POST /admin/rebuild}: builds the read models again from the event store in shadow tables and swaps them in (see
 * {@link Rebuilder}); pages and batches go on meanwhile. Answers when the swap is done.
 */
@Path("/admin/rebuild")
public class RebuildResource {

    private static final Logger LOG = Logger.getLogger(RebuildResource.class);

    private final Rebuilder rebuilder;
    private final AdminCaller caller;

    public RebuildResource(Rebuilder rebuilder, AdminCaller caller) {
        this.rebuilder = rebuilder;
        this.caller = caller;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> rebuild() throws SQLException {
        LOG.infof("rebuild requested by admin token '%s'", caller.tokenName());
        return Map.of("replayed_events", rebuilder.rebuild());
    }
}
