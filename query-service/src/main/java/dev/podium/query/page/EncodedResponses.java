package dev.podium.query.page;

import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Encodes text responses (rendered pages, CSV) to UTF-8 bytes before they are written, and writes every character of a
 * page or feed outside ASCII as a numeric character reference (pages from the {@link PageCache} come as those bytes). Qute's own escaper has already escaped every value from
 * the data; a reference renders as the same character in text and in attribute values alike, so the page shows what it
 * did while each of its bytes is ASCII. Netty would otherwise encode a {@code String} one {@code charAt} at a time,
 * where {@link String#getBytes} copies whole arrays.
 */
public class EncodedResponses {

    @ServerResponseFilter
    public void encode(ContainerResponseContext response) {
        if (response.getEntity() instanceof String text) {
            response.setEntity(
                    isMarkup(response.getMediaType())
                            ? AsciiReferences.bytes(text)
                            : text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static boolean isMarkup(MediaType type) {
        return type != null
                && (type.getSubtype().equals("html") || type.getSubtype().endsWith("xml"));
    }
}
