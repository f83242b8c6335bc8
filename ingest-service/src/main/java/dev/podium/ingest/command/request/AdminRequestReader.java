package dev.podium.ingest.command.request;

import dev.podium.events.bind.Binding;
import dev.podium.ingest.command.problem.InvalidRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Reads every {@link AdminRequest} body with {@link RequestBinder}: JSON, or YAML for a YAML media type; an empty body is
 * null (optional bodies; required ones say {@code @NotNull}). When binding met problems, they are thrown together with
 * the violations of what could be bound, so that one answer lists everything; otherwise {@code @Valid} on the resource
 * parameter checks the record.
 */
@Provider
public class AdminRequestReader implements MessageBodyReader<AdminRequest> {

    private final RequestBinder binder;

    public AdminRequestReader(RequestBinder binder) {
        this.binder = binder;
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return AdminRequest.class.isAssignableFrom(type);
    }

    @Override
    public AdminRequest readFrom(
            Class<AdminRequest> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders,
            InputStream entityStream) {
        RequestBinder.Body body = binder.read(entityStream, mediaType);
        if (body.isEmpty()) {
            return null;
        }
        Binding<AdminRequest> binding = binder.bind(body, type);
        if (!binding.problems().isEmpty()) {
            throw new InvalidRequestException(binder.violations(binding));
        }
        return binding.value();
    }
}
