package dev.podium.query.view;

/** A choice in a filter: its value, what the page shows, and whether it is the current one. */
public record Option(String value, String label, boolean selected) {}
