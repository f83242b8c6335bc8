package dev.podium.ingest.command.request;

/** Text put into a constraint message as it is: never read as a message parameter or an expression. */
final class ConstraintMessages {

    private ConstraintMessages() {}

    /** {@code text} with the characters of message interpolation escaped (Bean Validation 3, section 6.3.1.1). */
    static String literal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '\\' || c == '{' || c == '}' || c == '$') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
