package dev.podium.query.view;

/** One name and value shown in a definition list. */
public record Entry(String name, String value) {}
