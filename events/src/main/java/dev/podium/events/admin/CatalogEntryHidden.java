package dev.podium.events.admin;

import dev.podium.events.validate.Text;

/**
 * An admin took a benchmark, comparison key or device off the public pages ({@code hidden}) or put it back (not
 * {@code hidden}); its events and rows stay as they were. The latest such event of an entry decides.
 */
public record CatalogEntryHidden(
        CatalogKind kind, String name, boolean hidden, @Text String reason, String actor) implements AdminEvent {}
