package dev.podium.ingest.command.request;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/** Pools as a query parameter gives them, {@code ?pools=a,b}. */
public final class Pools {

    private Pools() {}

    /** The names split at commas and stripped, blanks and repeats left out, in the order given; null for no parameter. */
    public static List<String> fromQuery(String pools) {
        return pools == null
                ? null
                : List.copyOf(new LinkedHashSet<>(Arrays.stream(pools.split(","))
                        .map(String::strip)
                        .filter(p -> !p.isEmpty())
                        .toList()));
    }
}
