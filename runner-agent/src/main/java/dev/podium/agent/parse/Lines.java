package dev.podium.agent.parse;

import java.util.List;
import java.util.regex.Pattern;

/** Line splitting with limits, so a single enormous line cannot make a pattern run for long. */
final class Lines {

    static final int MAX_LINE = 16 * 1024;
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

    private Lines() {}

    static List<String> of(String text) {
        // Progress bars rewrite a line with \r; the last rewrite is what a terminal would show.
        return text.lines()
                .map(l -> {
                    int cr = l.lastIndexOf('\r');
                    String s = cr >= 0 ? l.substring(cr + 1) : l;
                    return s.length() > MAX_LINE ? "" : s;
                })
                .toList();
    }

    static String stripAnsi(String s) {
        return s.indexOf('\u001B') < 0 ? s : ANSI.matcher(s).replaceAll("");
    }
}
