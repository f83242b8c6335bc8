package dev.podium.query.page;

/**
 * HTML escaping, for the fragments written in Java instead of a template ({@link MatrixHtml}) and, through
 * {@link AsciiHtmlEscaper}, for every expression of the templates: Qute's replacements for text/html, so an agent's
 * strings render as text, and every character outside ASCII as a numeric character reference.
 * <p>
 * Why ASCII: one character outside Latin-1 (a dash in a table cell) turns every string and builder the page passes
 * through into two bytes per character, and its UTF-8 encoding into a loop over characters; an ASCII page stays one byte
 * per character and is encoded by copying arrays. Together that was about a fifth of the comparison page's CPU. A
 * reference renders as the same character, in text and in attribute values alike.
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
            char c = s.charAt(i);
            if (c < 0x80) {
                String entity = switch (c) {
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
            } else {
                int codePoint = s.codePointAt(i);
                out.append(s, from, i).append("&#").append(codePoint).append(';');
                i += Character.charCount(codePoint) - 1;
                from = i + 1;
            }
        }
        return from == 0 ? out.append(s) : out.append(s, from, s.length());
    }

    /** {@code s} escaped as {@link #escaped(StringBuilder, String)} does; {@code s} itself when nothing needs it. */
    static String escaped(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') {
                return escaped(new StringBuilder(s.length() + 16), s).toString();
            }
        }
        return s;
    }
}
