package dev.podium.ingest.command;

import java.util.Locale;

/**
 * What an admin token may do; each scope includes the ones before it. {@code read}: look at campaigns, jobs and other
 * admin state. {@code operate}: run the fleet (submit and unschedule campaigns, cancel jobs, re-run reproductions, retract results, hide
 * catalogue entries, redrive rejected records). {@code admin}: everything, including agent keys, imports and rebuilds.
 */
public enum AdminScope {
    READ,
    OPERATE,
    ADMIN;

    public boolean includes(AdminScope required) {
        return compareTo(required) >= 0;
    }

    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The scope named {@code text}; an exception for anything else, so a typo in the configuration stops the start. */
    public static AdminScope parse(String text) {
        for (AdminScope s : values()) {
            if (s.text().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("admin token scope must be read, operate or admin, not '" + text + "'");
    }

    /**
     * The scope a request needs: reading needs {@code read}; the fleet's commands need {@code operate}; anything else,
     * including commands added later that are not listed here, needs {@code admin}.
     */
    public static AdminScope required(String method, String path) {
        String m = method.toUpperCase(Locale.ROOT);
        if (m.equals("GET") || m.equals("HEAD")) {
            return READ;
        }
        String p = path.startsWith("/") ? path : "/" + path;
        if (p.equals("/admin/campaigns") && m.equals("POST")
                || p.matches("/admin/campaigns/[^/]+/schedule") && m.equals("DELETE")
                || p.matches("/admin/jobs/[^/]+/cancel") && m.equals("POST")
                || p.matches("/admin/runs/[^/]+/retract") && m.equals("POST")
                || p.matches("/admin/reproductions/[^/]+/rerun") && m.equals("POST")
                || p.matches("/admin/catalog/(hide|show)") && m.equals("POST")
                || p.startsWith("/admin/dlq/") && m.equals("POST")
                || p.startsWith("/admin/rejected/") && m.equals("POST")) {
            return OPERATE;
        }
        return ADMIN;
    }
}
