package dev.podium.ingest.projection;

import dev.podium.events.agent.AgentRegistered;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** {@code proj_agent}: the latest AgentRegistered of each agent. */
@ApplicationScoped
public class AgentProjection implements Projection {

    /** A {@code proj_agent} row; {@code accelerators} is JSON. */
    private record AgentRow(
            String agentId,
            String pool,
            String agentVersion,
            String hostname,
            UUID bootId,
            String accelerators,
            Instant registeredAt,
            long lastPosition) {}

    private static final Columns<AgentRow> AGENT = Columns.of(AgentRow.class);

    private static final String UPSERT = """
            INSERT INTO proj_agent (agent_id, pool, agent_version, hostname, boot_id, accelerators, registered_at,
                                    last_position)
            SELECT agent_id, pool, agent_version, hostname, boot_id, accelerators::jsonb, registered_at, last_position
            FROM %s
            ON CONFLICT (agent_id) DO UPDATE SET pool = excluded.pool, agent_version = excluded.agent_version,
                hostname = excluded.hostname, boot_id = excluded.boot_id, accelerators = excluded.accelerators,
                registered_at = excluded.registered_at, last_position = excluded.last_position
            WHERE proj_agent.last_position < excluded.last_position""".formatted(AGENT.unnest("x"));

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof AgentRegistered a)) {
            return;
        }
        Rows.writeOne(
                c,
                AGENT,
                UPSERT,
                new AgentRow(
                        a.agentId(),
                        a.pool(),
                        a.agentVersion(),
                        a.host() == null ? null : a.host().hostname(),
                        a.bootId(),
                        Json.of(a.accelerators()),
                        event.envelope().occurredAt(),
                        event.position()));
    }
}
