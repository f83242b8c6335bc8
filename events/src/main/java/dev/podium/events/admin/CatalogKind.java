package dev.podium.events.admin;

import java.util.Locale;

/** What a {@link CatalogEntryHidden} names: a benchmark by name, a comparison key by id, a device by id. */
public enum CatalogKind {
    BENCHMARK,
    KEY,
    DEVICE;

    /** The kind as admin requests, the CLI and the read model write it: {@code benchmark}, {@code key}, {@code device}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }
}
