package dev.podium.events.run;

import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import java.util.List;
import java.util.UUID;

/** A batch of points of one time series sampled during a run (step throughput, utilisation, memory, power). */
public record MetricSampled(UUID runId, SeriesKind series, String unit, List<Sample> samples) implements RunEvent {}
