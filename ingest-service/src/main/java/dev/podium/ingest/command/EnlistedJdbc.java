package dev.podium.ingest.command;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * JDBC work (the event-store append, projections, advisory locks) inside the caller's JTA transaction. A connection
 * taken from the Agroal datasource while a transaction is active is enlisted in it, and is the physical connection
 * Hibernate's session uses, so the entity writes and the JDBC ones commit or roll back together. The session is
 * flushed first, so that the JDBC side sees the entity writes made so far.
 */
@ApplicationScoped
public class EnlistedJdbc {

    /** Work on the enlisted connection; it must neither commit, roll back nor change its auto-commit. */
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** A JDBC failure inside a command's transaction; unchecked, so that the transaction rolls back. */
    public static class Failure extends RuntimeException {
        Failure(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final AgroalDataSource dataSource;
    private final EntityManager entities;

    public EnlistedJdbc(AgroalDataSource dataSource, EntityManager entities) {
        this.dataSource = dataSource;
        this.entities = entities;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public <T> T call(Work<T> work) {
        entities.flush();
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new Failure(e);
        }
    }

    /** A transaction-level advisory lock if no other transaction holds it; false (at once) when one does. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean tryLock(long key) {
        return call(c -> {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT pg_try_advisory_xact_lock(" + key + ")")) {
                rs.next();
                return rs.getBoolean(1);
            }
        });
    }
}
