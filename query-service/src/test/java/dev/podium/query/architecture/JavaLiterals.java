package dev.podium.query.architecture;

import java.util.ArrayList;
import java.util.List;

/** The string literals and text blocks of a Java source, as written (escapes left as they are); comments skipped. */
final class JavaLiterals {

    private JavaLiterals() {}

    static List<String> of(String source) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                i = end(source, source.indexOf('\n', i), 1);
            } else if (source.startsWith("/*", i)) {
                i = end(source, source.indexOf("*/", i + 2), 2);
            } else if (source.startsWith("\"\"\"", i)) {
                int close = source.indexOf("\"\"\"", source.indexOf('\n', i));
                literals.add(source.substring(source.indexOf('\n', i), close));
                i = close + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i);
                int j = i + 1;
                while (source.charAt(j) != quote) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                if (quote == '"') {
                    literals.add(source.substring(i + 1, j));
                }
                i = j + 1;
            } else {
                i++;
            }
        }
        return literals;
    }

    private static int end(String source, int at, int length) {
        return at < 0 ? source.length() : at + length;
    }
}
