package dev.podium.query.stats;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The regressions page as an Atom 1.0 feed (RFC 4287): the values its template ({@code StatsPages/regressionsAtom.xml})
 * writes, where Qute escapes each. Characters XML 1.0 cannot carry at all, escaped or not, are dropped here.
 */
public record AtomFeed(String title, String id, String updated, String self, String alternate, List<Entry> entries) {

    public static final String MEDIA_TYPE = "application/atom+xml";
    private static final Instant EPOCH = Instant.parse("2020-01-01T00:00:00Z");

    /** One step: its title, stable id, time, history link, kind and summary. */
    public record Entry(String title, String id, String updated, String link, String kind, String summary) {}

    public static AtomFeed of(RegressionsView view, String baseUri) {
        String base = baseUri.endsWith("/") ? baseUri.substring(0, baseUri.length() - 1) : baseUri;
        String scope = view.benchmark() == null ? "" : ": " + view.benchmark();
        Instant updated =
                view.changes().stream().map(Change::at).max(Instant::compareTo).orElse(EPOCH);
        List<Entry> entries = view.changes().stream()
                .map(c -> new Entry(
                        clean(String.format(
                                Locale.ROOT,
                                "%s %s on %s: %s %s (%.4g → %.4g %s)",
                                c.kind(),
                                c.percent(),
                                c.deviceLabel(),
                                c.benchmark(),
                                c.metric(),
                                c.before(),
                                c.after(),
                                c.unit() == null ? "" : c.unit())),
                        clean("tag:podium.dev,2026:change:" + c.keyId() + ":" + c.metric() + ":" + c.deviceId() + ":"
                                + c.runId()),
                        DateTimeFormatter.ISO_INSTANT.format(c.at()),
                        clean(base + c.historyLink()),
                        c.kind(),
                        clean(String.format(
                                Locale.ROOT,
                                "%s of %s under key %s on %s: level %.4g before, %.4g from run %s (%.1f σ); "
                                        + "framework %s.",
                                c.kind(),
                                c.metric(),
                                c.keyId(),
                                c.deviceLabel(),
                                c.before(),
                                c.after(),
                                c.runId(),
                                c.sigmas(),
                                c.versions()))))
                .toList();
        return new AtomFeed(
                clean("Podium " + view.kind() + scope),
                clean("tag:podium.dev,2026:" + view.kind() + (view.benchmark() == null ? "" : ":" + view.benchmark())),
                DateTimeFormatter.ISO_INSTANT.format(updated),
                clean(base + view.atomLink()),
                clean(base + view.atomLink().replaceFirst("^/regressions\\.atom", "/regressions")),
                entries);
    }

    /** Drops the characters XML 1.0 cannot carry. */
    static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints()
                .filter(c -> c == 0x9
                        || c == 0xA
                        || c == 0xD
                        || (c >= 0x20 && c <= 0xD7FF)
                        || (c >= 0xE000 && c <= 0xFFFD)
                        || (c >= 0x10000 && c <= 0x10FFFF))
                .forEach(b::appendCodePoint);
        return b.toString();
    }
}
