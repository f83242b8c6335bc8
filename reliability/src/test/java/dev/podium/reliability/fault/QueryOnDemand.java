package dev.podium.reliability.fault;

import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.QueryProcess;
import java.nio.file.Path;
import java.util.List;

/**
 * query-service for the cases that read pages: started on the first case that asks, once for all of them, and stopped
 * with the suite.
 */
final class QueryOnDemand implements AutoCloseable {

    /**
     * As {@code ./podium up} runs it: as the read-only role {@code podium_query}, whose statement timeout (V95) is part
     * of what bounds a request. The page cache is off because an attacker who owns a run can change it, and so drop its
     * page, as often as it likes: a page must do bounded work on a miss, and every request here is one.
     */
    private static final List<String> OPTIONS =
            List.of("-Dquarkus.datasource.username=podium_query", "-Dpodium.query.cache.enabled=false");

    private final Path jar;
    private final Path work;
    private final String jdbcUrl;
    private QueryProcess query;

    QueryOnDemand(Path jar, Path work, String jdbcUrl) {
        this.jar = jar;
        this.work = work;
        this.jdbcUrl = jdbcUrl;
    }

    synchronized QueryProcess get() {
        if (query == null) {
            QueryProcess started = new QueryProcess("query", jar, work, Ports.freeRun(1), jdbcUrl);
            try {
                started.start(OPTIONS);
            } catch (RuntimeException e) {
                started.close();
                throw e;
            }
            query = started;
        }
        return query;
    }

    @Override
    public synchronized void close() {
        if (query != null) {
            query.close();
        }
    }
}
