package dev.podium.query.view;

import dev.podium.query.chart.Chart;
import dev.podium.query.data.ResultRow;
import dev.podium.query.data.RetractionRow;
import dev.podium.query.data.RunSummary;
import java.util.List;

/**
 * Everything a run page shows, and what /api/v1/runs/{id} returns; {@code retraction} is null unless it was retracted.
 * {@code events} is one page of its event timeline. {@code devices} are the accelerators the agent identified, with the
 * enforced power limit beside its default (empty when it reported none).
 */
public record RunView(
        RunSummary run,
        RetractionRow retraction,
        String deviceLabel,
        String keyCanonical,
        String keyLabel,
        List<Entry> key,
        List<Entry> workload,
        List<Entry> parameters,
        List<Entry> host,
        List<List<Entry>> accelerators,
        List<Device> devices,
        List<Entry> software,
        List<ResultRow> results,
        List<Check> validity,
        List<Entry> failure,
        Chart throughputChart,
        Chart utilisationChart,
        RunEvents events) {

    /**
     * One accelerator as its vendor tool identified it, its enforced power limit beside the default (null where the
     * tool reported none), and whether the limit was lowered below the default, which fails not_throttled.
     */
    public record Device(
            int index,
            String identity,
            Double powerLimitWatts,
            Double defaultPowerLimitWatts,
            Double maxSmClockMhz,
            Double maxMemoryClockMhz,
            boolean belowDefault) {}

    /** One validity check of the run. */
    public record Check(String name, boolean passed, String detail) {}
}
