package dev.podium.query.view;

import dev.podium.events.admin.CatalogKind;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.device.Peaks;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.AgentRow;
import dev.podium.query.data.DeviceRow;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** Builds the home, device and benchmark views (the fleet's is {@link FleetService}'s). */
@ApplicationScoped
public class CatalogService {

    private final Queries queries;
    private final QueryConfig config;
    private final ComparisonService comparisons;

    public CatalogService(Queries queries, QueryConfig config, ComparisonService comparisons) {
        this.queries = queries;
        this.config = config;
        this.comparisons = comparisons;
    }

    /** The home view; with {@code find} (checked: {@link KeyListing#find}) the benchmarks and devices named so. */
    public CatalogViews.HomeView home(String find) {
        String text = KeyListing.find(find);
        List<AgentRow> agents = queries.agents();
        return new CatalogViews.HomeView(
                text == null ? queries.benchmarks() : queries.findBenchmarks(text, KeyListing.PER_PAGE),
                text == null ? queries.devices() : queries.findDevices(text, KeyListing.PER_PAGE),
                queries.recentRuns(config.recentRuns()),
                agents.size(),
                (int) agents.stream().filter(AgentRow::online).count(),
                text);
    }

    /** A device's view; empty (404) for one there is none of, or one an admin hid. */
    public Optional<CatalogViews.DeviceView> device(String deviceId) {
        if (queries.hidden(CatalogKind.DEVICE, deviceId)) {
            return Optional.empty();
        }
        Optional<DeviceRow> row = queries.device(deviceId);
        Optional<DeviceModel> model = DeviceAliases.byId(deviceId);
        if (row.isEmpty() && model.isEmpty()) {
            return Optional.empty();
        }
        String label = DeviceAliases.label(deviceId)
                .or(() -> row.map(DeviceRow::label))
                .orElse(deviceId);
        String vendor =
                model.map(DeviceModel::vendor).orElse(row.map(DeviceRow::vendor).orElse(null));
        Peaks.Lookup peaks = Peaks.of(deviceId);
        return Optional.of(new CatalogViews.DeviceView(
                deviceId,
                label,
                vendor,
                model.map(DeviceModel::variantSpecified).orElse(true),
                peaks instanceof Peaks.Lookup.Found f ? f.peaks() : null,
                peaks instanceof Peaks.Lookup.NoPeak n ? n.reason() : null,
                queries.leaderboardOfDevice(deviceId),
                queries.recentRunsOfDevice(deviceId, config.recentRuns())));
    }

    /** A benchmark's view with one page of its keys ({@link KeyListing}); empty (404) for one there is none of. */
    public Optional<CatalogViews.BenchmarkView> benchmark(String benchmark, KeyListing.Asked asked) {
        if (!queries.benchmarkExists(benchmark)) {
            return Optional.empty();
        }
        KeyListing keys = asked.find() != null ? found(benchmark, asked) : ranked(benchmark, asked);
        return Optional.of(new CatalogViews.BenchmarkView(
                benchmark,
                keys.keys(),
                keys.paging(),
                asked.find() != null
                        ? queries.findMetrics(benchmark, asked.find(), Queries.MAX_METRICS)
                        : queries.metrics(benchmark),
                comparisons.claims(benchmark),
                queries.recentRunsOfBenchmark(benchmark, config.recentRuns())));
    }

    public Optional<CatalogViews.KeyView> key(String keyId) {
        return queries.key(keyId)
                .map(k -> new CatalogViews.KeyView(
                        k.keyId(),
                        k.benchmark(),
                        k.canonical(),
                        k.key().dimensions().entrySet().stream()
                                .map(e -> new Entry(e.getKey(), e.getValue() == null ? "—" : e.getValue()))
                                .toList(),
                        new LeaderboardQuery(
                                        k.benchmark(), k.keyId(), null, null, null, null, null, null, null, null, null)
                                .link()
                                .build(),
                        "/keys/" + Links.segment(k.keyId())));
    }

    /** The ranked keys' page asked for; past the last page, the last. */
    private KeyListing ranked(String benchmark, KeyListing.Asked asked) {
        List<KeyRow> all = queries.keys(benchmark);
        int pages = Math.max(1, (all.size() + KeyListing.PER_PAGE - 1) / KeyListing.PER_PAGE);
        int page = Math.min(asked.page(), pages);
        List<KeyOption> shown =
                all.subList((page - 1) * KeyListing.PER_PAGE, Math.min(all.size(), page * KeyListing.PER_PAGE)).stream()
                        .map(k -> option(benchmark, k))
                        .toList();
        return new KeyListing(
                shown,
                new KeyListing.Paging(
                        page,
                        pages,
                        all.size(),
                        null,
                        page > 1 ? Links.benchmarkPage(benchmark, page - 1) : null,
                        page < pages ? Links.benchmarkPage(benchmark, page + 1) : null));
    }

    private KeyListing found(String benchmark, KeyListing.Asked asked) {
        List<KeyOption> shown = queries.findKeys(benchmark, asked.find(), KeyListing.PER_PAGE).stream()
                .map(k -> option(benchmark, k))
                .toList();
        return new KeyListing(shown, new KeyListing.Paging(1, 1, shown.size(), asked.find(), null, null));
    }

    private static KeyOption option(String benchmark, KeyRow k) {
        return new KeyOption(
                k.keyId(),
                k.canonical(),
                k.key().label(),
                k.dimensions(),
                false,
                new LeaderboardQuery(benchmark, k.keyId(), null, null, null, null, null, null, null, null, null)
                        .link()
                        .build());
    }
}
