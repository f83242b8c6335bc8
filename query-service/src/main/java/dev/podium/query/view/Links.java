package dev.podium.query.view;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds links to our own pages. Every value is percent-encoded, so a string that came from an agent can only ever be a
 * query value or one path segment, never a scheme, a host or another parameter.
 */
public final class Links {

    private final String path;
    private final List<String> parts = new ArrayList<>();

    private Links(String path) {
        this.path = path;
    }

    public static Links to(String path) {
        return new Links(path);
    }

    public Links param(String name, String value) {
        if (value != null && !value.isEmpty()) {
            parts.add(encode(name) + "=" + encode(value));
        }
        return this;
    }

    public Links params(String name, List<String> values) {
        if (values != null) {
            values.forEach(v -> param(name, v));
        }
        return this;
    }

    public String build() {
        return parts.isEmpty() ? path : path + "?" + String.join("&", parts);
    }

    public static String segment(String value) {
        return encode(value).replace("+", "%20");
    }

    public static String run(Object runId) {
        return "/runs/" + segment(String.valueOf(runId));
    }

    public static String device(String deviceId) {
        return "/devices/" + segment(deviceId);
    }

    public static String benchmark(String benchmark) {
        return "/benchmarks/" + segment(benchmark);
    }

    /** Page {@code page} of a benchmark's keys. */
    public static String benchmarkPage(String benchmark, int page) {
        return benchmark(benchmark) + "?page=" + page;
    }

    /**
     * {@link URLEncoder}'s encoding. Most values (ids, numbers, sort names) hold no character it would change; they are
     * returned as they are, without its allocations.
     */
    private static String encode(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean unchanged = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '-'
                    || c == '_'
                    || c == '*';
            if (!unchanged) {
                return URLEncoder.encode(s, StandardCharsets.UTF_8);
            }
        }
        return s;
    }
}
