package dev.podium.ingest.command.request;

import dev.podium.events.admin.CatalogKind;
import dev.podium.events.bind.OneOf;
import dev.podium.events.bind.PlainText;
import dev.podium.events.validate.Limits;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Locale;

/**
 * Body of {@code POST /admin/catalog/hide} and {@code /admin/catalog/show}: which entry (a benchmark by name, a
 * comparison key or a device by id) and why, kept in the event.
 */
public record CatalogEntryRequest(
        @NotNull(message = "required: benchmark, key or device") @OneOf({"benchmark", "key", "device"})
        String kind,

        @NotNull(message = "required: the benchmark's name, the key's id or the device's id") @PlainText(max = MAX_NAME)
        String name,

        @NotBlank(message = "required: say why") @Size(max = MAX_REASON, message = "at most {max} characters") @NoNul
        String reason)
        implements AdminRequest {

    /** As long as a name an event can carry. */
    public static final int MAX_NAME = Limits.MAX_STRING_CHARS;

    public static final int MAX_REASON = 1024;

    /** The kind named; call only once the request is valid. */
    public CatalogKind catalogKind() {
        return CatalogKind.valueOf(kind.toUpperCase(Locale.ROOT));
    }
}
