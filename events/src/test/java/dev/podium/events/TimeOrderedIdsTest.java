package dev.podium.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    @Test
    void idsAreVersion7WithTheMillisecondTheyWereMintedIn() {
        long before = System.currentTimeMillis();
        UUID id = TimeOrderedIds.next();
        long after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isBetween(before, after);
    }

    @Test
    void idsMintedOneAfterTheOtherSortOneAfterTheOtherAsPostgresqlComparesThem() {
        // Many share a millisecond: the order must hold within one too, not only across milliseconds.
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            ids.add(TimeOrderedIds.next());
        }
        for (int i = 1; i < ids.size(); i++) {
            assertThat(Arrays.compareUnsigned(bytes(ids.get(i - 1)), bytes(ids.get(i))))
                    .as("id %d after id %d", i, i - 1)
                    .isNegative();
        }
    }

    @Test
    void threadsMintingAtOnceNeverGetTheSameId() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<UUID>>> minted = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                minted.add(pool.submit(() -> {
                    List<UUID> ids = new ArrayList<>();
                    for (int i = 0; i < 25_000; i++) {
                        ids.add(TimeOrderedIds.next());
                    }
                    return ids;
                }));
            }
            Set<UUID> all = new HashSet<>();
            for (Future<List<UUID>> f : minted) {
                all.addAll(f.get());
            }
            assertThat(all).hasSize(100_000);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The 16 bytes PostgreSQL compares, in its order (memcmp). */
    private static byte[] bytes(UUID id) {
        return ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array();
    }
}
