package dev.podium.ingest.projection;

import dev.podium.events.agent.AgentRegistered;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** {@code proj_agent}: the latest AgentRegistered of each agent. */
@ApplicationScoped
public class AgentProjection implements Projection {

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof AgentRegistered a)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_agent (agent_id, pool, agent_version, hostname, boot_id, accelerators, registered_at,
                                        last_position)
                VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, ?)
                ON CONFLICT (agent_id) DO UPDATE SET pool = excluded.pool, agent_version = excluded.agent_version,
                    hostname = excluded.hostname, boot_id = excluded.boot_id, accelerators = excluded.accelerators,
                    registered_at = excluded.registered_at, last_position = excluded.last_position
                WHERE proj_agent.last_position < excluded.last_position""")) {
            ps.setString(1, a.agentId());
            ps.setString(2, a.pool());
            ps.setString(3, a.agentVersion());
            ps.setString(4, a.host() == null ? null : a.host().hostname());
            Sql.setUuid(ps, 5, a.bootId());
            ps.setString(6, Json.of(a.accelerators()));
            Sql.setTime(ps, 7, event.envelope().occurredAt());
            ps.setLong(8, event.position());
            ps.executeUpdate();
        }
    }
}
