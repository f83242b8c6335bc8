package dev.podium.query.view;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The answer to a request whose parameter is not one a page takes: a 400 that says what it takes, as plain text. */
public final class BadRequest {

    private BadRequest() {}

    /**
     * A whole number from {@code min} to {@code max} as a request gives it; null when blank (not asked for); a 400 saying
     * {@code message} for anything else.
     */
    static Long wholeNumber(String text, long min, long max, String message) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            long n = Long.parseLong(text.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below, as any other bad number
        }
        throw because(message);
    }

    public static BadRequestException because(String message) {
        return new BadRequestException(
                message,
                Response.status(Response.Status.BAD_REQUEST)
                        .type(MediaType.TEXT_PLAIN_TYPE)
                        .entity(message)
                        .build());
    }
}
