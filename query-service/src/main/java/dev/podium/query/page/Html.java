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
        int from = 0; // the characters before a special one are copied as one run: a link holds a few '&' in 100 characters
        for (int i = 0; i < s.length(); i++) {
            String entity = switch (s.charAt(i)) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (entity != null) {
                out.append(s, from, i).append(entity);
                from = i + 1;
            }
        }
        return from == 0 ? out.append(s) : out.append(s, from, s.length());
    }
}
