package dev.podium.ingest;

import dev.podium.ingest.command.MasterKeyCheck;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Ingest's process: Quarkus's own, but a start refused for a master key that does not open the database's keys ends
 * with {@value MasterKeyCheck.Sealed#EXIT_STATUS}, which tells scripts and supervisors not to start it again.
 */
@QuarkusMain
public final class IngestMain {

    private IngestMain() {}

    public static void main(String... args) {
        Quarkus.run(
                null,
                (status, failure) ->
                        System.exit(MasterKeyCheck.Sealed.in(failure) ? MasterKeyCheck.Sealed.EXIT_STATUS : status),
                args);
    }
}
