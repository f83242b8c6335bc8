package dev.podium.query.page;

import java.util.Arrays;

/**
 * Text as ASCII bytes, every character outside ASCII written as a numeric character reference ({@code é} as
 * {@code &#233;}): in one pass, since a page is some 60 KB and is written on every request.
 */
final class AsciiReferences {

    /** The longest reference: "&#1114111;". */
    private static final int LONGEST = 10;

    private AsciiReferences() {}

    static byte[] bytes(String text) {
        int n = text.length();
        byte[] out = new byte[n + (n >> 4) + LONGEST];
        int o = 0;
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            if (out.length - o < LONGEST) {
                out = Arrays.copyOf(out, out.length + (out.length >> 1) + LONGEST);
            }
            if (ch < 0x80) {
                out[o++] = (byte) ch;
            } else {
                int codePoint = text.codePointAt(i);
                if (Character.isSupplementaryCodePoint(codePoint)) {
                    i++;
                }
                o = reference(out, o, codePoint);
            }
        }
        return Arrays.copyOf(out, o);
    }

    private static int reference(byte[] out, int at, int codePoint) {
        int o = at;
        out[o++] = '&';
        out[o++] = '#';
        String digits = Integer.toString(codePoint);
        for (int d = 0; d < digits.length(); d++) {
            out[o++] = (byte) digits.charAt(d);
        }
        out[o++] = ';';
        return o;
    }
}
