package dev.podium.ingest.projection;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Host;
import dev.podium.events.published.PublishedClaimImported;
import dev.podium.events.run.RunStarted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * {@code proj_host}, {@code proj_device}, {@code proj_benchmark} and {@code proj_comparison_key}, from RunStarted and
 * imported claims. Every row is the one of the highest position that named it, so a batch buffers the latest per key
 * and writes each once at its end (guarded by position, as a replay would leave it).
 */
@ApplicationScoped
public class CatalogProjection implements Projection {

    private record HostRow(Host host, long position) {
    }

    private record DeviceRow(String vendor, String label, long position) {
    }

    private record KeyRow(ComparisonKey key, long position) {
    }

    /** The latest row per primary key named in this batch. */
    private static final class Pending {
        final java.util.Map<String, HostRow> hosts = new java.util.LinkedHashMap<>();
        final java.util.Map<String, DeviceRow> devices = new java.util.LinkedHashMap<>();
        final java.util.Map<String, KeyRow> keys = new java.util.LinkedHashMap<>();
        final java.util.Map<String, Long> benchmarks = new java.util.LinkedHashMap<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        long position = event.position();
        if (event.envelope().payload() instanceof RunStarted r) {
            if (r.host() != null) {
                pending.hosts.put(hostKey(r.host()), new HostRow(r.host(), position));
            }
            if (r.accelerators() == null || r.accelerators().isEmpty()) {
                String cpu = DeviceAliases.cpuDeviceId(r.host() == null ? null : r.host().cpuModel());
                pending.devices.put(cpu, new DeviceRow(null, r.host() == null ? cpu : r.host().cpuModel(), position));
            } else {
                for (Accelerator a : r.accelerators()) {
                    Optional<DeviceModel> known = DeviceAliases.byId(a.deviceId());
                    pending.devices.put(a.deviceId(), new DeviceRow(known.map(DeviceModel::vendor).orElse(a.vendor()),
                            known.map(DeviceModel::label).orElse(a.model()), position));
                }
            }
            key(pending, r.key(), position);
        } else if (event.envelope().payload() instanceof PublishedClaimImported p && p.claim().key() != null) {
            key(pending, p.claim().key(), position);
            if (p.claim().deviceId() != null) {
                Optional<DeviceModel> known = DeviceAliases.byId(p.claim().deviceId());
                pending.devices.put(p.claim().deviceId(), new DeviceRow(known.map(DeviceModel::vendor).orElse(null),
                        known.map(DeviceModel::label).orElse(p.claim().deviceLabel()), position));
            }
        }
    }

    private static void key(Pending pending, ComparisonKey key, long position) {
        if (key != null) {
            pending.benchmarks.put(key.benchmark(), position);
            pending.keys.putIfAbsent(key.id(), new KeyRow(key, position));
        }
    }

    /** The four tables' rows of the whole batch in one statement; every map holds one row per primary key. */
    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        Rows hosts = new Rows(HOSTS, "text", "text", "text", "text", "int", "int", "int", "bigint", "text", "text",
                "bigint");
        for (HostRow row : pending.hosts.values()) {
            Host h = row.host();
            hosts.add(hostKey(h), hostKey(h), h.hostname(), h.machineId(), h.cpuModel(), h.sockets(), h.cores(),
                    h.threads(), h.memoryBytes(), h.os(), h.kernel(), row.position());
        }
        Rows devices = new Rows(DEVICES, "text", "text", "text", "bigint");
        for (var d : pending.devices.entrySet()) {
            if (d.getKey() != null) {
                devices.add(d.getKey(), d.getKey(), d.getValue().vendor(), d.getValue().label(), d.getValue().position());
            }
        }
        Rows benchmarks = new Rows(BENCHMARKS, "text", "bigint");
        for (var b : pending.benchmarks.entrySet()) {
            benchmarks.add(b.getKey(), b.getKey(), b.getValue());
        }
        Rows keys = new Rows(KEYS, "text", "text", "text", "text");
        for (KeyRow k : pending.keys.values()) {
            keys.add(k.key().id(), k.key().id(), k.key().benchmark(), k.key().canonical(), Json.of(k.key().dimensions()));
        }
        Rows.executeTogether(c, List.of(hosts, devices, benchmarks, keys));
    }

    /** The key a host is known by: its machine id when the agent found one, else its hostname. */
    public static String hostKey(Host h) {
        return h.machineId() != null && !h.machineId().isBlank() ? h.machineId() : h.hostname();
    }

    private static final String HOSTS = """
            INSERT INTO proj_host (host_key, hostname, machine_id, cpu_model, sockets, cores, threads, memory_bytes, os,
                                   kernel, last_position)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[], ?::bigint[],
                                 ?::text[], ?::text[], ?::bigint[])
            ON CONFLICT (host_key) DO UPDATE SET hostname = excluded.hostname, machine_id = excluded.machine_id,
                cpu_model = excluded.cpu_model, sockets = excluded.sockets, cores = excluded.cores,
                threads = excluded.threads, memory_bytes = excluded.memory_bytes, os = excluded.os,
                kernel = excluded.kernel, last_position = excluded.last_position
            WHERE proj_host.last_position < excluded.last_position""";

    private static final String DEVICES = """
            INSERT INTO proj_device (device_id, vendor, label, last_position)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[])
            ON CONFLICT (device_id) DO UPDATE SET vendor = excluded.vendor, label = excluded.label,
                last_position = excluded.last_position
            WHERE proj_device.last_position < excluded.last_position""";

    private static final String BENCHMARKS = """
            INSERT INTO proj_benchmark (benchmark, last_position)
            SELECT * FROM unnest(?::text[], ?::bigint[])
            ON CONFLICT (benchmark) DO UPDATE SET last_position = excluded.last_position
            WHERE proj_benchmark.last_position < excluded.last_position""";

    private static final String KEYS = """
            INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions)
            SELECT k, b, c, d::jsonb FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS x(k, b, c, d)
            ON CONFLICT (key_id) DO NOTHING""";
}
