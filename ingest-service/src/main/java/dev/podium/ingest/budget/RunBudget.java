package dev.podium.ingest.budget;

import dev.podium.events.StreamKind;
import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.verify.Verdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A run's budget: how many events its stream may hold (its seq says, so no lookup) and how many samples each of its
 * series kinds may gather (the stored count, from {@code proj_run_series_head}, plus what the batch adds before).
 */
final class RunBudget {

    /** One run's series of one kind. */
    private record SeriesId(UUID runId, String series) {}

    private final IngestConfig.Budget config;

    RunBudget(IngestConfig.Budget config) {
        this.config = config;
    }

    /** Holds, in batch order, each verified run record that would pass the run's budget. */
    void hold(Connection c, Verdict[] verdicts) throws SQLException {
        Map<SeriesId, Long> samples = storedSamples(c, verdicts);
        for (int i = 0; i < verdicts.length; i++) {
            if (!(verdicts[i] instanceof Verdict.Verified v)
                    || v.envelope().type().streamKind() != StreamKind.RUN) {
                continue;
            }
            if (v.envelope().seq() > config.runEvents()) {
                verdicts[i] = Verdict.Refused.held(
                        v,
                        "over the run's budget: event " + v.envelope().seq() + " of a run allowed " + config.runEvents()
                                + " (podium.ingest.budget.run-events)");
            } else if (v.envelope().payload() instanceof MetricSampled m) {
                SeriesId id = new SeriesId(m.runId(), m.series().name());
                long after = samples.getOrDefault(id, 0L) + m.samples().size();
                if (after > config.runSamplesPerSeries()) {
                    verdicts[i] = Verdict.Refused.held(
                            v,
                            "over the run's budget: " + m.series() + " would hold " + after + " samples of "
                                    + config.runSamplesPerSeries() + " allowed"
                                    + " (podium.ingest.budget.run-samples-per-series)");
                } else {
                    samples.put(id, after);
                }
            }
        }
    }

    /** The samples already stored of each series the batch's verified MetricSampled records add to. */
    private static Map<SeriesId, Long> storedSamples(Connection c, Verdict[] verdicts) throws SQLException {
        Set<SeriesId> ids = new LinkedHashSet<>();
        for (Verdict verdict : verdicts) {
            if (verdict instanceof Verdict.Verified v && v.envelope().payload() instanceof MetricSampled m) {
                ids.add(new SeriesId(m.runId(), m.series().name()));
            }
        }
        Map<SeriesId, Long> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        List<SeriesId> list = List.copyOf(ids);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT h.run_id, h.series, h.samples FROM proj_run_series_head h
                JOIN unnest(?::uuid[], ?::text[]) AS t(run_id, series) ON h.run_id = t.run_id AND h.series = t.series""")) {
            ps.setArray(
                    1,
                    c.createArrayOf("uuid", list.stream().map(SeriesId::runId).toArray()));
            ps.setArray(
                    2,
                    c.createArrayOf("text", list.stream().map(SeriesId::series).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(
                            new SeriesId(rs.getObject("run_id", UUID.class), rs.getString("series")),
                            rs.getLong("samples"));
                }
            }
        }
        return out;
    }
}
