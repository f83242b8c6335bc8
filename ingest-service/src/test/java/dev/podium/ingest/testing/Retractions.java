package dev.podium.ingest.testing;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.ingest.command.CommandAppender;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/** Retracts a run as an operator does: one ResultRetracted appended by the command side, projected as it commits. */
public final class Retractions {

    private Retractions() {}

    public static void retract(DataSource dataSource, CommandAppender appender, UUID run) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            appender.append(
                    c,
                    List.of(Envelope.of(
                            UUID.randomUUID(),
                            StreamId.admin(UUID.randomUUID()),
                            1,
                            null,
                            Instant.now(),
                            new ResultRetracted(run, "throttled", "ops"))),
                    "command:ops");
            c.commit();
        }
    }
}
