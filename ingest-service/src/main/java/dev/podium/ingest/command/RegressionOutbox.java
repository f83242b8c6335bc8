package dev.podium.ingest.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.config.HistoryConfig;
import dev.podium.ingest.history.ChangePointUpdater;
import dev.podium.ingest.history.FoundStep;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * Queues each new regression for the webhook in {@code regression_delivery}, in the change-point updater's transaction,
 * so a regression is queued exactly when its row is stored. Nothing is queued while no webhook is configured.
 */
@ApplicationScoped
public class RegressionOutbox implements ChangePointUpdater.NewRegressions {

    private final HistoryConfig config;
    private final ObjectMapper mapper = EventCodec.newMapper();

    public RegressionOutbox(HistoryConfig config) {
        this.config = config;
    }

    @Override
    public void added(Connection c, List<FoundStep> regressions) throws SQLException {
        if (config.webhook().url().isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO regression_delivery (id, payload) VALUES (?, ?::jsonb) ON CONFLICT (id) DO NOTHING")) {
            for (FoundStep r : regressions) {
                RegressionNotice notice = RegressionNotice.of(r);
                ps.setObject(1, notice.id(), Types.OTHER);
                ps.setString(2, json(notice));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private String json(RegressionNotice notice) {
        try {
            return mapper.writeValueAsString(notice);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a notice always encodes", e);
        }
    }
}
