package dev.podium.query.view;

import java.util.Map;

/** A comparison key offered on a page, with its dimensions and whether it is the one shown. */
public record KeyOption(String keyId, String canonical, Map<String, String> dimensions, boolean selected, String link) {
}
