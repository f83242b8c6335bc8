package dev.podium.query.page;

/**
 * HTML escaping for the few fragments written in Java instead of a template ({@link MatrixHtml}): the same replacements
 * as Qute's escaper for text/html, so an agent's strings render as text there too.
 */
final class Html {

    private Html() {
    }

    /** Appends {@code s} escaped for text and for quoted attribute values alike. */
    static StringBuilder escaped(StringBuilder out, String s) {
        if (s == null) {
            return out;
        }
        int first = 0;
        while (first < s.length() && !special(s.charAt(first))) {
            first++;
        }
        out.append(s, 0, first); // most strings (ids, labels, our links) need no escaping: one copy
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out;
    }

    private static boolean special(char c) {
        return c == '&' || c == '<' || c == '>' || c == '"' || c == '\'';
    }
}
