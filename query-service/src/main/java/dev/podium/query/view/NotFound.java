package dev.podium.query.view;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The answer to a request that names a benchmark, comparison key or metric there is none of: a 404 that says which, as plain
 * text, on pages and the API alike. No page shows another item in place of the one asked for.
 */
public final class NotFound {

    /** The most characters of a requested name the answer repeats. */
    private static final int MAX_NAME = 200;

    private NotFound() {}

    public static NotFoundException benchmark(String benchmark) {
        return of("No benchmark named \"" + cut(benchmark) + "\".");
    }

    public static NotFoundException key(String keyId) {
        return of("No comparison key with id \"" + cut(keyId) + "\".");
    }

    public static NotFoundException keyOfAnother(String keyId, String benchmark) {
        return of("The comparison key \"" + cut(keyId) + "\" is not one of benchmark \"" + cut(benchmark) + "\".");
    }

    public static NotFoundException metric(String metric) {
        return of("The benchmark has no results for a metric named \"" + cut(metric) + "\".");
    }

    private static NotFoundException of(String message) {
        return new NotFoundException(
                message,
                Response.status(Response.Status.NOT_FOUND)
                        .type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                        .entity(message)
                        .build());
    }

    private static String cut(String name) {
        return name.length() <= MAX_NAME ? name : name.substring(0, MAX_NAME) + "…";
    }
}
