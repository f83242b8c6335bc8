package dev.podium.ingest.command.request;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * The query of {@code POST /admin/claims/{source}/{claim}/reproduce?pools=a,b}: the pools to measure on, each once, in
 * the order given. How many a claim needs depends on the claim, and is checked with it.
 */
public record ReproduceRequest(
        @NotEmpty(message = "at least one pool") List<@NotNull @PoolName String> pools) {

    public static ReproduceRequest fromQuery(String pools) {
        List<String> given = Pools.fromQuery(pools);
        return new ReproduceRequest(given == null ? List.of() : given);
    }
}
