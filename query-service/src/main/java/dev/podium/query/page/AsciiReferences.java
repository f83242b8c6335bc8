package dev.podium.query.page;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text as ASCII bytes, every character outside ASCII written as a numeric character reference ({@code é} as
 * {@code &#233;}). A page is some 30 to 100 KB and is written on every request, so the text is first encoded to UTF-8
 * by the JDK's own encoder (which copies runs of ASCII as whole arrays), then its ASCII runs are copied as they are and
 * each multi-byte sequence between them becomes one reference. A lone surrogate, which is no character, is encoded as
 * {@code ?}, as UTF-8 encoding does.
 */
final class AsciiReferences {

    /** The longest reference: "&#1114111;". */
    private static final int LONGEST = 10;

    private AsciiReferences() {}

    static byte[] bytes(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int i = nextNonAscii(utf8, 0);
        if (i == utf8.length) {
            return utf8;
        }
        byte[] out = Arrays.copyOf(utf8, utf8.length + (utf8.length >> 4) + LONGEST);
        int o = i;
        while (i < utf8.length) {
            int length = sequenceLength(utf8[i]);
            if (out.length - o < LONGEST) {
                out = Arrays.copyOf(out, out.length + (out.length >> 1) + LONGEST);
            }
            o = reference(out, o, codePoint(utf8, i, length));
            i += length;
            int run = nextNonAscii(utf8, i) - i;
            if (out.length - o < run) {
                out = Arrays.copyOf(out, o + run + (out.length >> 1) + LONGEST);
            }
            System.arraycopy(utf8, i, out, o, run);
            o += run;
            i += run;
        }
        return Arrays.copyOf(out, o);
    }

    /** The index of the first byte at or after {@code from} that is not ASCII, or the length. */
    private static int nextNonAscii(byte[] utf8, int from) {
        int i = from;
        while (i < utf8.length && utf8[i] >= 0) {
            i++;
        }
        return i;
    }

    /** How many bytes the UTF-8 sequence that starts with {@code lead} has (the JDK writes only well-formed ones). */
    private static int sequenceLength(byte lead) {
        int b = lead & 0xFF;
        return b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    }

    private static int codePoint(byte[] utf8, int at, int length) {
        int codePoint = utf8[at] & (0x7F >> length);
        for (int k = 1; k < length; k++) {
            codePoint = (codePoint << 6) | (utf8[at + k] & 0x3F);
        }
        return codePoint;
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
