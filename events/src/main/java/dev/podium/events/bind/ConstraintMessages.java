package dev.podium.events.bind;

import jakarta.validation.ConstraintValidatorContext;

/** Text put into a constraint message as it is: never read as a message parameter or an expression. */
public final class ConstraintMessages {

    private ConstraintMessages() {}

    /** {@code text} with the characters of message interpolation escaped (Bean Validation 3, section 6.3.1.1). */
    public static String literal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '\\' || c == '{' || c == '}' || c == '$') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Replaces the constraint's message by {@code text}, taken as it is; returns false, for {@code isValid}. */
    public static boolean fail(ConstraintValidatorContext context, String text) {
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(literal(text)).addConstraintViolation();
        return false;
    }
}
