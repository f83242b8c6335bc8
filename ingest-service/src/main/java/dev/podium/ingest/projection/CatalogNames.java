package dev.podium.ingest.projection;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.Accelerator;
import dev.podium.events.run.RunStarted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The catalogue entries a run names: its benchmark, its comparison key and its device ids (the accelerators', or the
 * host CPU's when it has none), as {@link CatalogProjection} writes them and the agent quotas count them.
 */
public record CatalogNames(String benchmark, String keyId, List<String> deviceIds) {

    public static CatalogNames of(RunStarted r) {
        List<String> devices = new ArrayList<>();
        if (r.accelerators() == null || r.accelerators().isEmpty()) {
            devices.add(
                    DeviceAliases.cpuDeviceId(r.host() == null ? null : r.host().cpuModel()));
        } else {
            for (Accelerator a : r.accelerators()) {
                if (a.deviceId() != null) {
                    devices.add(a.deviceId());
                }
            }
        }
        return new CatalogNames(
                r.key() == null ? null : r.key().benchmark(),
                r.key() == null ? null : r.key().id(),
                devices.stream().distinct().toList());
    }

    /** The kinds of entry, as {@code proj_catalog_origin.kind} names them. */
    public enum Kind {
        BENCHMARK,
        KEY,
        DEVICE;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Every entry with its kind, benchmark first. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        if (benchmark != null) {
            out.add(new Entry(Kind.BENCHMARK, benchmark));
        }
        if (keyId != null) {
            out.add(new Entry(Kind.KEY, keyId));
        }
        deviceIds.forEach(d -> out.add(new Entry(Kind.DEVICE, d)));
        return out;
    }

    /** One catalogue entry. */
    public record Entry(Kind kind, String name) {}
}
