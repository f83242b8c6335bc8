package dev.podium.agent.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Splitting a command string the way a shell would for plain words and quotes, and filling {param} placeholders. */
public final class CommandLine {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_.-]*)}");

    private CommandLine() {}

    public static List<String> split(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < command.length()) {
                    cur.append(command.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                }
            } else if (c == '\\' && i + 1 < command.length()) {
                cur.append(command.charAt(++i));
                inWord = true;
            } else {
                cur.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new JobSpecException("command", "unbalanced quote");
        }
        if (inWord) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Each {name} replaced by the parameter's value; an unknown placeholder is an error naming it. */
    public static List<String> fill(List<String> template, Map<String, String> parameters) {
        List<String> out = new ArrayList<>();
        for (String arg : template) {
            Matcher m = PLACEHOLDER.matcher(arg);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String v = parameters.get(m.group(1));
                if (v == null) {
                    throw new JobSpecException("command", "placeholder {" + m.group(1) + "} names no parameter");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(v));
            }
            m.appendTail(sb);
            out.add(sb.toString());
        }
        return out;
    }
}
