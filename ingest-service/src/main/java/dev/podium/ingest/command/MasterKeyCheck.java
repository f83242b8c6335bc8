package dev.podium.ingest.command;

import dev.podium.ingest.store.AgentKeyStore;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Ingest does not start half-sealed: with a master key other than the one the database's keys were sealed under, every
 * agent's records would be refused as signed by an unknown key and no job could be signed. So at start, before any
 * consumer runs, the command key and every key that still verifies must open; otherwise it says which do not and what
 * to do, and the process ends ({@link Sealed}, status {@value Sealed#EXIT_STATUS}) without having changed anything.
 */
@ApplicationScoped
public class MasterKeyCheck {

    private static final Logger LOG = Logger.getLogger(MasterKeyCheck.class);
    /** The most key ids the message names. */
    private static final int NAMED = 5;

    private final CommandKey commandKey;
    private final AgentKeyStore agentKeys;
    private final AgroalDataSource dataSource;

    public MasterKeyCheck(CommandKey commandKey, AgentKeyStore agentKeys, AgroalDataSource dataSource) {
        this.commandKey = commandKey;
        this.agentKeys = agentKeys;
        this.dataSource = dataSource;
    }

    /** Thrown at start when stored keys do not open under the configured master key. */
    public static final class Sealed extends IllegalStateException {

        /** EX_CONFIG of sysexits.h: restarting cannot help, so scripts/lib/restart-on-exit.sh does not. */
        public static final int EXIT_STATUS = 78;

        Sealed(String message) {
            super(message);
        }

        /** Whether {@code failure} or a cause of it is this refusal. */
        public static boolean in(Throwable failure) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof Sealed) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Passes when every stored key opens; else logs why and throws {@link Sealed}. */
    public void check() throws SQLException {
        List<String> agents;
        try (Connection c = dataSource.getConnection()) {
            agents = agentKeys.undecryptable(c);
        }
        Optional<String> command = commandKey.undecryptable();
        if (agents.isEmpty() && command.isEmpty()) {
            return;
        }
        String message = message(agents, command);
        LOG.error(message);
        throw new Sealed(message);
    }

    static String message(List<String> agents, Optional<String> command) {
        List<String> what = new ArrayList<>();
        command.ifPresent(id -> what.add("the command key " + id));
        if (!agents.isEmpty()) {
            what.add(agents.size() + " agent key(s) ("
                    + String.join(", ", agents.subList(0, Math.min(NAMED, agents.size())))
                    + (agents.size() > NAMED ? ", ..." : "") + ")");
        }
        return "ingest refuses to start: " + String.join(" and ", what)
                + " do not decrypt under the configured master key (podium.ingest.master-key), so this database was"
                + " sealed under another one. Nothing was changed. Restore the master key it was sealed under (./podium"
                + " up keeps it in .podium/master-key), or start on a new database.";
    }
}
