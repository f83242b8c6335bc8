package dev.podium.query.page;

/** Text with every character outside ASCII written as a numeric character reference ({@code é} as {@code &#233;}). */
final class AsciiReferences {

    private AsciiReferences() {}

    /** {@code text} itself when it is ASCII already. */
    static String of(String text) {
        int first = firstNonAscii(text);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 64).append(text, 0, first);
        for (int i = first; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            if (codePoint < 0x80) {
                out.append((char) codePoint);
            } else {
                out.append("&#").append(codePoint).append(';');
            }
            i += Character.charCount(codePoint);
        }
        return out.toString();
    }

    private static int firstNonAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return i;
            }
        }
        return -1;
    }
}
