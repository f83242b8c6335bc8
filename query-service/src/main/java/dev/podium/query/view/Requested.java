package dev.podium.query.view;

import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark and comparison key a leaderboard or comparison request names, checked against what there is: one there
 * is none of answers 404 ({@link NotFound}), never another in its place. Blank means not named.
 *
 * @param benchmark the benchmark named, else the named key's, else the one with the most counted results (first of
 *     {@link Queries#benchmarks()}); null where there is none at all
 * @param key the key named; null where none is
 * @param benchmarks the benchmarks on offer, the one shown among them
 */
record Requested(String benchmark, KeyRow key, List<String> benchmarks) {

    static Requested of(Queries queries, String benchmark, String keyId) {
        String named = blank(benchmark) ? null : benchmark;
        if (named != null && !queries.benchmarkExists(named)) {
            throw NotFound.benchmark(named);
        }
        KeyRow key = null;
        if (!blank(keyId)) {
            key = queries.key(keyId).orElseThrow(() -> NotFound.key(keyId));
            if (named != null && !key.benchmark().equals(named)) {
                throw NotFound.keyOfAnother(keyId, named);
            }
        }
        List<String> ranked = queries.benchmarks();
        String shown = named != null ? named : key != null ? key.benchmark() : ranked.isEmpty() ? null : ranked.get(0);
        return new Requested(shown, key, offered(ranked, shown));
    }

    /** {@code ranked} with {@code shown} at its end where the list left it out, so that the page's choice is on offer. */
    private static List<String> offered(List<String> ranked, String shown) {
        if (shown == null || ranked.contains(shown)) {
            return ranked;
        }
        List<String> out = new ArrayList<>(ranked);
        out.add(shown);
        return out;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
