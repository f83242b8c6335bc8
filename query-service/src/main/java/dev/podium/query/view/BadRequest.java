package dev.podium.query.view;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The answer to a request whose parameter is not one a page takes: a 400 that says what it takes, as plain text. */
public final class BadRequest {

    private BadRequest() {}

    public static BadRequestException because(String message) {
        return new BadRequestException(
                message,
                Response.status(Response.Status.BAD_REQUEST)
                        .type(MediaType.TEXT_PLAIN_TYPE)
                        .entity(message)
                        .build());
    }
}
