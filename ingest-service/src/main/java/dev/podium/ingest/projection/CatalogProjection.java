package dev.podium.ingest.projection;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Host;
import dev.podium.events.published.PublishedClaimImported;
import dev.podium.events.run.RunStarted;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code proj_host}, {@code proj_device}, {@code proj_benchmark} and {@code proj_comparison_key}, from RunStarted and
 * imported claims. Every row is the one of the highest position that named it, so a batch buffers the latest per key
 * and writes each once at its end (guarded by position, as a replay would leave it).
 */
@ApplicationScoped
public class CatalogProjection implements Projection {

    /** A {@code proj_host} row: the host as the run of {@code lastPosition} described it. */
    private record HostRow(
            String hostKey,
            String hostname,
            String machineId,
            String cpuModel,
            int sockets,
            int cores,
            int threads,
            long memoryBytes,
            String os,
            String kernel,
            long lastPosition) {

        static HostRow of(Host h, long position) {
            return new HostRow(
                    CatalogProjection.hostKey(h),
                    h.hostname(),
                    h.machineId(),
                    h.cpuModel(),
                    h.sockets(),
                    h.cores(),
                    h.threads(),
                    h.memoryBytes(),
                    h.os(),
                    h.kernel(),
                    position);
        }
    }

    /** A {@code proj_device} row. */
    private record DeviceRow(String deviceId, String vendor, String label, long lastPosition) {}

    /** A {@code proj_benchmark} row. */
    private record BenchmarkRow(String benchmark, long lastPosition) {}

    /** A {@code proj_comparison_key} row; {@code dimensions} is JSON. */
    private record KeyRow(String keyId, String benchmark, String canonical, String dimensions) {

        static KeyRow of(ComparisonKey key) {
            return new KeyRow(key.id(), key.benchmark(), key.canonical(), Json.of(key.dimensions()));
        }
    }

    /** A {@code proj_catalog_origin} row: who named an entry first. */
    private record OriginRow(String kind, String name, String agentId, long position) {}

    private static final Columns<OriginRow> ORIGIN = Columns.of(OriginRow.class);
    private static final Columns<HostRow> HOST = Columns.of(HostRow.class);
    private static final Columns<DeviceRow> DEVICE = Columns.of(DeviceRow.class);
    private static final Columns<BenchmarkRow> BENCHMARK = Columns.of(BenchmarkRow.class);
    private static final Columns<KeyRow> KEY = Columns.of(KeyRow.class);

    /** The latest row per primary key named in this batch. */
    private static final class Pending {
        final Map<String, HostRow> hosts = new LinkedHashMap<>();
        final Map<String, DeviceRow> devices = new LinkedHashMap<>();
        final Map<String, KeyRow> keys = new LinkedHashMap<>();
        final Map<String, BenchmarkRow> benchmarks = new LinkedHashMap<>();
        final Map<CatalogNames.Entry, OriginRow> origins = new LinkedHashMap<>();

        void origins(CatalogNames names, String agentId, long position) {
            for (CatalogNames.Entry e : names.entries()) {
                origins.putIfAbsent(e, new OriginRow(e.kind().column(), e.name(), agentId, position));
            }
        }

        void device(String deviceId, String vendor, String label, long position) {
            devices.put(deviceId, new DeviceRow(deviceId, vendor, label, position));
        }
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        long position = event.position();
        if (event.envelope().payload() instanceof RunStarted r) {
            if (r.host() != null) {
                pending.hosts.put(hostKey(r.host()), HostRow.of(r.host(), position));
            }
            if (r.accelerators() == null || r.accelerators().isEmpty()) {
                String cpu = DeviceAliases.cpuDeviceId(
                        r.host() == null ? null : r.host().cpuModel());
                pending.device(cpu, null, r.host() == null ? cpu : r.host().cpuModel(), position);
            } else {
                for (Accelerator a : r.accelerators()) {
                    Optional<DeviceModel> known = DeviceAliases.byId(a.deviceId());
                    pending.device(
                            a.deviceId(),
                            known.map(DeviceModel::vendor).orElse(a.vendor()),
                            known.map(DeviceModel::label).orElse(a.model()),
                            position);
                }
            }
            key(pending, r.key(), position);
            pending.origins(CatalogNames.of(r), event.envelope().agentId(), position);
        } else if (event.envelope().payload() instanceof PublishedClaimImported p
                && p.claim().key() != null) {
            key(pending, p.claim().key(), position);
            if (p.claim().deviceId() != null) {
                Optional<DeviceModel> known = DeviceAliases.byId(p.claim().deviceId());
                pending.device(
                        p.claim().deviceId(),
                        known.map(DeviceModel::vendor).orElse(null),
                        known.map(DeviceModel::label).orElse(p.claim().deviceLabel()),
                        position);
            }
            List<String> devices =
                    p.claim().deviceId() == null ? List.of() : List.of(p.claim().deviceId());
            CatalogNames names = new CatalogNames(
                    p.claim().key().benchmark(), p.claim().key().id(), devices);
            pending.origins(names, null, position);
        }
    }

    private static void key(Pending pending, ComparisonKey key, long position) {
        if (key != null) {
            pending.benchmarks.put(key.benchmark(), new BenchmarkRow(key.benchmark(), position));
            pending.keys.computeIfAbsent(key.id(), id -> KeyRow.of(key));
        }
    }

    /** The four tables' rows of the whole batch in one statement; every map holds one row per primary key. */
    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        Rows<HostRow> hosts = new Rows<>(HOST, HOSTS, HostRow::hostKey);
        pending.hosts.values().forEach(hosts::add);
        Rows<DeviceRow> devices = new Rows<>(DEVICE, DEVICES, DeviceRow::deviceId);
        pending.devices.values().stream().filter(d -> d.deviceId() != null).forEach(devices::add);
        if (namesNewBenchmark(c, pending.benchmarks.keySet())) {
            touched.newBenchmark();
        }
        Rows<BenchmarkRow> benchmarks = new Rows<>(BENCHMARK, BENCHMARKS, BenchmarkRow::benchmark);
        pending.benchmarks.values().forEach(benchmarks::add);
        Rows<KeyRow> keys = new Rows<>(KEY, KEYS, KeyRow::keyId);
        pending.keys.values().forEach(keys::add);
        Rows<OriginRow> origins = new Rows<>(ORIGIN, ORIGINS, o -> List.of(o.kind(), o.name()));
        pending.origins.values().forEach(origins::add);
        Rows.executeTogether(c, List.of(hosts, devices, benchmarks, keys, origins));
    }

    /** Whether any of the benchmarks has no row yet (read before this batch writes its rows). */
    private static boolean namesNewBenchmark(Connection c, Set<String> benchmarks) throws SQLException {
        if (benchmarks.isEmpty()) {
            return false;
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT count(*) FROM proj_benchmark WHERE benchmark = ANY(?::text[])")) {
            ps.setArray(1, c.createArrayOf("text", benchmarks.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) < benchmarks.size();
            }
        }
    }

    /** The key a host is known by: its machine id when the agent found one, else its hostname. */
    public static String hostKey(Host h) {
        return h.machineId() != null && !h.machineId().isBlank() ? h.machineId() : h.hostname();
    }

    private static final String HOSTS = """
            INSERT INTO proj_host (host_key, hostname, machine_id, cpu_model, sockets, cores, threads, memory_bytes, os,
                                   kernel, last_position)
            SELECT host_key, hostname, machine_id, cpu_model, sockets, cores, threads, memory_bytes, os, kernel,
                   last_position
            FROM %s
            ON CONFLICT (host_key) DO UPDATE SET hostname = excluded.hostname, machine_id = excluded.machine_id,
                cpu_model = excluded.cpu_model, sockets = excluded.sockets, cores = excluded.cores,
                threads = excluded.threads, memory_bytes = excluded.memory_bytes, os = excluded.os,
                kernel = excluded.kernel, last_position = excluded.last_position
            WHERE proj_host.last_position < excluded.last_position""".formatted(HOST.unnest("x"));

    private static final String DEVICES = """
            INSERT INTO proj_device (device_id, vendor, label, last_position)
            SELECT device_id, vendor, label, last_position FROM %s
            ON CONFLICT (device_id) DO UPDATE SET vendor = excluded.vendor, label = excluded.label,
                last_position = excluded.last_position
            WHERE proj_device.last_position < excluded.last_position""".formatted(DEVICE.unnest("x"));

    private static final String BENCHMARKS = """
            INSERT INTO proj_benchmark (benchmark, last_position)
            SELECT benchmark, last_position FROM %s
            ON CONFLICT (benchmark) DO UPDATE SET last_position = excluded.last_position
            WHERE proj_benchmark.last_position < excluded.last_position""".formatted(BENCHMARK.unnest("x"));

    private static final String ORIGINS = """
            INSERT INTO proj_catalog_origin (kind, name, agent_id, position)
            SELECT kind, name, agent_id, position FROM %s
            ON CONFLICT (kind, name) DO NOTHING""".formatted(ORIGIN.unnest("x"));

    private static final String KEYS = """
            INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions)
            SELECT key_id, benchmark, canonical, dimensions::jsonb FROM %s
            ON CONFLICT (key_id) DO NOTHING""".formatted(KEY.unnest("x"));
}
