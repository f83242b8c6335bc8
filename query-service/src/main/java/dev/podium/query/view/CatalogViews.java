package dev.podium.query.view;

import dev.podium.events.device.Peaks;
import dev.podium.query.data.DeviceRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.RunSummary;
import java.util.List;

/** The views of the home, device and benchmark pages. */
public final class CatalogViews {

    private CatalogViews() {}

    /** The home page: benchmarks, devices, recent runs and a fleet summary. */
    /**
     * The home page: the benchmarks and devices ranked (real data first), or with {@code find} those whose name holds
     * it (at most {@value KeyListing#PER_PAGE} each), so that none is out of reach however many there are.
     */
    public record HomeView(
            List<String> benchmarks,
            List<DeviceRow> devices,
            List<RunSummary> recentRuns,
            int agents,
            int online,
            String find) {}

    /**
     * A device: its identity, its datasheet peaks ({@code peaks}; null where it has none, and {@code noPeak} says why),
     * its leaderboard rows under every key, and its recent runs.
     */
    public record DeviceView(
            String deviceId,
            String label,
            String vendor,
            boolean variantSpecified,
            Peaks.DevicePeaks peaks,
            String noPeak,
            List<LeaderboardRow> rows,
            List<RunSummary> recentRuns) {}

    /** A benchmark: its comparison keys, metrics, published claims' verdicts and recent runs. */
    public record BenchmarkView(
            String benchmark,
            List<KeyOption> keys,
            KeyListing.Paging keyPaging,
            List<String> metrics,
            List<dev.podium.query.claim.ClaimCheck> claims,
            List<RunSummary> recentRuns) {}

    /** One comparison key: a single primary-key lookup, also the baseline page of the page benchmark. */
    public record KeyView(
            String keyId, String benchmark, String canonical, List<Entry> dimensions, String link, String self) {}
}
