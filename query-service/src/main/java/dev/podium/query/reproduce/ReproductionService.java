package dev.podium.query.reproduce;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.published.Reproduction;
import dev.podium.query.data.AdaptiveSideRow;
import dev.podium.query.data.CellQueries;
import dev.podium.query.data.FleetQueries;
import dev.podium.query.stats.ConfigDifference;
import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.LogDifference;
import dev.podium.query.stats.LogSample;
import dev.podium.query.stats.Margin;
import dev.podium.query.stats.RatioEstimator;
import dev.podium.query.stats.RatioInterval;
import dev.podium.query.view.Margins;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/** Builds a claim's page: the plan {@link Reproduction} gives it, and the ratios its reproductions measured. */
@ApplicationScoped
public class ReproductionService {

    private static final String COMPILER = "compiler";

    /** The most configuration values read for one ratio's two sides. */
    private static final int MAX_CONFIG_VALUES = 1000;

    /** The sides of an adaptive campaign. */
    private static final int SIDES = 2;

    private final ReproductionQueries queries;
    private final CellQueries cells;
    private final FleetQueries fleet;
    private final Margins margins;
    private final ObjectMapper json = EventCodec.newMapper();

    public ReproductionService(ReproductionQueries queries, CellQueries cells, FleetQueries fleet, Margins margins) {
        this.queries = queries;
        this.cells = cells;
        this.fleet = fleet;
        this.margins = margins;
    }

    /**
     * The claim's page, its ratios judged at {@code requestedMargin} (percent; null: the benchmark's or the default), or
     * empty when there is no such claim.
     */
    public Optional<ReproductionView> build(String source, String claimId, String requestedMargin) {
        Optional<PublishedClaim> claim = claim(source, claimId);
        if (claim.isEmpty()) {
            return Optional.empty();
        }
        PublishedClaim c = claim.get();
        RatioBasis ratio = c.ratio();
        Reproduction.Result result = Reproduction.plan(
                c,
                ratio == null || ratio.numeratorClaimId() == null
                        ? null
                        : claim(source, ratio.numeratorClaimId()).orElse(null),
                ratio == null || ratio.denominatorClaimId() == null
                        ? null
                        : claim(source, ratio.denominatorClaimId()).orElse(null));
        ReproductionView.Plan plan = result.plan()
                .map(p -> new ReproductionView.Plan(
                        p.dimension(), p.baseline(), p.compared(), p.spec().benchmark(), p.metric(), p.crossDevice()))
                .orElse(null);
        String command = result.plan()
                .map(p -> "podium-admin claim reproduce " + source + " " + claimId + " --pools "
                        + (p.crossDevice() ? "SUBJECT_POOL,BASELINE_POOL" : "POOL[,POOL...]"))
                .orElse(null);
        Margin margin =
                margins.of(requestedMargin, c.key() == null ? null : c.key().benchmark());
        ClaimBand claimed = ClaimBand.of(c, margin);
        List<ReproductionQueries.ReproductionRow> reproductions = queries.reproductions(source, claimId);
        Map<UUID, List<AdaptiveSideRow>> adaptive = adaptiveSides(reproductions);
        List<ReproductionView.Reproduced> reproduced = new ArrayList<>();
        for (ReproductionQueries.ReproductionRow r : reproductions) {
            List<ReproductionQueries.MeasuredRow> rows =
                    queries.measured(r.campaignId(), r.metric(), r.parameter() == null ? null : r.dimension());
            reproduced.add(new ReproductionView.Reproduced(
                    r.campaignId(),
                    r.pools(),
                    r.devices(),
                    r.createdAt().toString(),
                    Reproduction.DEVICE.equals(r.dimension())
                            ? acrossPools(c, r, rows, claimed, margin)
                            : perDevice(c, r, rows, claimed, margin),
                    queries.stale(r.campaignId()).stream()
                            .map(ReproductionService::stale)
                            .toList(),
                    "podium-admin reproduction rerun " + r.campaignId(),
                    adaptive(r, adaptive.getOrDefault(UUID.fromString(r.campaignId()), List.of()))));
        }
        return Optional.of(new ReproductionView(
                source,
                claimId,
                c.quote(),
                c.deviceLabel(),
                ratio == null ? null : ratio.baselineLabel(),
                claimedText(c),
                stated(c),
                plan,
                result.reason(),
                command,
                accelerators(c),
                reproduced));
    }

    /** Per device: the rows at the baseline value against those at the other value. */
    private List<ReproductionView.Ratio> perDevice(
            PublishedClaim claim,
            ReproductionQueries.ReproductionRow r,
            List<ReproductionQueries.MeasuredRow> rows,
            ClaimBand claimed,
            Margin margin) {
        Map<String, ReproductionQueries.MeasuredRow> baseline = new LinkedHashMap<>();
        Map<String, ReproductionQueries.MeasuredRow> compared = new LinkedHashMap<>();
        for (ReproductionQueries.MeasuredRow m : rows) {
            (r.baselineValue().equals(m.dimensionValue()) ? baseline : compared).putIfAbsent(m.deviceLabel(), m);
        }
        List<ReproductionView.Ratio> out = new ArrayList<>();
        baseline.forEach((device, b) -> {
            ReproductionQueries.MeasuredRow a = compared.get(device);
            if (a != null) {
                out.add(ratio(
                        device + " (" + r.dimension() + " " + b.dimensionValue() + " \u2192 " + a.dimensionValue()
                                + ")",
                        a,
                        b,
                        claimed,
                        margin,
                        notComparable(
                                COMPILER.equals(r.dimension()) ? compilerClaimDiffers(claim, a) : null,
                                devicesDiffer(claim, r))));
            }
        });
        return out;
    }

    /**
     * A compiler's speed-up depends on the compiler and the device, so a measured one is checked against the claim only
     * when both are the claim's own; otherwise it is context, and this says why (null when comparable). A claim that
     * names no compiler in its key (AITemplate's are named by their benchmark alone) matches none that Podium runs.
     */
    static String compilerClaimDiffers(PublishedClaim claim, ReproductionQueries.MeasuredRow compiled) {
        String claimedCompiler = claim.key() == null ? null : claim.key().valueOf(COMPILER);
        List<String> differences = new ArrayList<>();
        if (!compiled.dimensionValue().equals(claimedCompiler)) {
            differences.add("compiler " + compiled.dimensionValue() + ", not "
                    + (claimedCompiler == null
                            ? "the claim's ("
                                    + (claim.key() == null
                                            ? claim.source()
                                            : claim.key().benchmark()) + ")"
                            : claimedCompiler));
        }
        if (claim.deviceId() != null && !claim.deviceId().equals(compiled.deviceId())) {
            differences.add("device " + compiled.deviceLabel() + ", not "
                    + (claim.deviceLabel() == null ? claim.deviceId() : claim.deviceLabel()));
        }
        return differences.isEmpty() ? null : String.join("; ", differences);
    }

    /**
     * A reproduction measured at another number of accelerators a run than the claim's measures another configuration:
     * the speed-up of a dimension such as dataloader workers depends on how many processes share the host. Says so, as
     * "1 accelerator a run, not the claim's 8"; null when it ran at the claim's own number.
     */
    static String devicesDiffer(PublishedClaim claim, ReproductionQueries.ReproductionRow r) {
        Integer claimed = accelerators(claim);
        if (r.devices() == null || r.devices().equals(claimed)) {
            return null;
        }
        return acceleratorsText(r.devices()) + " a run, "
                + (claimed == null ? "the claim states no number" : "not the claim's " + claimed);
    }

    /** The claim's number of accelerators: its key's total, else its device count; null when it states neither. */
    static Integer accelerators(PublishedClaim claim) {
        Integer total = claim.key() == null ? null : claim.key().totalAccelerators();
        return total != null ? total : claim.deviceCount();
    }

    /** "1 accelerator", "8 accelerators". */
    static String acceleratorsText(int n) {
        return n + (n == 1 ? " accelerator" : " accelerators");
    }

    /** The reasons a ratio is not comparable with the claim, joined; null when there is none. */
    private static String notComparable(String... reasons) {
        String joined = Arrays.stream(reasons).filter(Objects::nonNull).collect(Collectors.joining("; "));
        return joined.isEmpty() ? null : joined;
    }

    /** A device against another: the subject's pool (the first) against the baseline's. */
    private List<ReproductionView.Ratio> acrossPools(
            PublishedClaim claim,
            ReproductionQueries.ReproductionRow r,
            List<ReproductionQueries.MeasuredRow> rows,
            ClaimBand claimed,
            Margin margin) {
        Optional<ReproductionQueries.MeasuredRow> subject =
                rows.stream().filter(m -> m.pool().equals(r.pools().get(0))).findFirst();
        Optional<ReproductionQueries.MeasuredRow> baseline = rows.stream()
                .filter(m -> r.pools().size() > 1 && m.pool().equals(r.pools().get(1)))
                .findFirst();
        if (subject.isEmpty() || baseline.isEmpty()) {
            return List.of();
        }
        if (!subject.get().keyId().equals(baseline.get().keyId())) {
            return List.of(); // checked directly only when the same workload ran on both devices
        }
        return List.of(ratio(
                subject.get().deviceLabel() + " vs " + baseline.get().deviceLabel(),
                subject.get(),
                baseline.get(),
                claimed,
                margin,
                devicesDiffer(claim, r)));
    }

    /**
     * The ratio of two measured rows with RatioEstimator's Welch interval (each side's spread from its row's interval),
     * its verdict against 1 at the margin, and against the claim unless it was measured under other conditions than the
     * claim's ({@code notComparable} says which; null when comparable), with the configuration in which its sides differ.
     */
    private ReproductionView.Ratio ratio(
            String where,
            ReproductionQueries.MeasuredRow a,
            ReproductionQueries.MeasuredRow b,
            ClaimBand claimed,
            Margin margin,
            String notComparable) {
        Optional<LogDifference> w = RatioEstimator.difference(
                LogSample.ofRow(a.mean(), a.runs(), a.ci95Low(), a.ci95High()),
                LogSample.ofRow(b.mean(), b.runs(), b.ci95Low(), b.ci95High()),
                false);
        Optional<RatioInterval> interval = w.map(RatioEstimator::interval).filter(RatioEstimator::computable);
        Optional<ClaimBand.Check> check =
                claimed == null || interval.isEmpty() ? Optional.empty() : w.map(claimed::check);
        // Measured under other conditions, the ratio is context: the runs a side stay, the verdict on the claim goes.
        Optional<ClaimBand.Check> verdict = notComparable == null ? check : Optional.empty();
        return new ReproductionView.Ratio(
                where,
                a.mean(),
                b.mean(),
                a.runs(),
                b.runs(),
                a.mean() / b.mean(),
                interval.map(RatioInterval::low).orElse(null),
                interval.map(RatioInterval::high).orElse(null),
                verdict.map(ClaimBand.Check::holds).orElse(null),
                notComparable,
                interval.isEmpty() ? null : Equivalence.of(w.get(), margin),
                claimed == null ? null : claimed.toleranceText(),
                check.map(ClaimBand.Check::runsPerSide).orElse(null),
                verdict.map(ClaimBand.Check::moreRuns).orElse(null),
                differences(a, b));
    }

    /** The settings in which the counted runs of {@code a}'s device and key differ from {@code b}'s. */
    private List<ConfigDifference> differences(ReproductionQueries.MeasuredRow a, ReproductionQueries.MeasuredRow b) {
        Map<String, Set<String>> side = new HashMap<>();
        Map<String, Set<String>> base = new HashMap<>();
        for (CellQueries.ConfigValue v : cells.configurations(
                List.of(a.keyId(), b.keyId()), List.of(a.deviceId(), b.deviceId()), MAX_CONFIG_VALUES)) {
            if (v.keyId().equals(a.keyId()) && v.deviceId().equals(a.deviceId())) {
                side.computeIfAbsent(v.setting(), x -> new TreeSet<>()).add(v.value());
            }
            if (v.keyId().equals(b.keyId()) && v.deviceId().equals(b.deviceId())) {
                base.computeIfAbsent(v.setting(), x -> new TreeSet<>()).add(v.value());
            }
        }
        return ConfigDifference.between(side, base);
    }

    private static List<ReproductionView.Stated> stated(PublishedClaim c) {
        if (c.key() == null) {
            return List.of();
        }
        List<ReproductionView.Stated> stated = new ArrayList<>();
        c.key().dimensions().forEach((setting, value) -> {
            if (value != null) {
                stated.add(new ReproductionView.Stated(setting, value));
            }
        });
        return stated;
    }

    private static String claimedText(PublishedClaim c) {
        String unit = c.ratio() != null && c.ratio().form() == RatioBasis.RatioForm.PERCENT_MORE ? "% more" : "\u00d7";
        if (c.value() instanceof ClaimValue.Exact e) {
            return trim(e.value()) + unit;
        }
        if (c.value() instanceof ClaimValue.Range r) {
            return trim(r.low()) + "\u2013" + trim(r.high()) + unit;
        }
        if (c.value() instanceof ClaimValue.Bound b) {
            return b.operator() + " " + trim(b.value()) + unit;
        }
        return "n/a";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private Optional<PublishedClaim> claim(String source, String claimId) {
        return queries.claimJson(source, claimId).map(text -> {
            try {
                return json.readValue(text, PublishedClaim.class);
            } catch (IOException e) {
                throw new UncheckedIOException("proj_published_claim holds a claim that does not decode", e);
            }
        });
    }

    /** The sides of those of the reproductions that are adaptive, by campaign, read with one query for them all. */
    private Map<UUID, List<AdaptiveSideRow>> adaptiveSides(List<ReproductionQueries.ReproductionRow> reproductions) {
        return fleet
                .adaptive(
                        reproductions.stream()
                                .map(r -> UUID.fromString(r.campaignId()))
                                .toList(),
                        SIDES * reproductions.size())
                .stream()
                .collect(Collectors.groupingBy(AdaptiveSideRow::campaignId));
    }

    /** Where an adaptive reproduction stands, from its sides' rows; null when it has none (it is not adaptive). */
    private static ReproductionView.Adaptive adaptive(
            ReproductionQueries.ReproductionRow r, List<AdaptiveSideRow> sides) {
        if (sides.isEmpty()) {
            return null;
        }
        return new ReproductionView.Adaptive(
                sides.get(0).progress(),
                sides.stream()
                        .map(s -> new ReproductionView.AdaptiveSide(where(r, s), s.runs(), s.jobs()))
                        .toList());
    }

    /** A side by its pool and, where the reproduction varies a parameter, the side's value of it. */
    private static String where(ReproductionQueries.ReproductionRow r, AdaptiveSideRow s) {
        String value = r.parameter() == null ? null : s.parameters().get(r.parameter());
        return value == null ? s.pool() : s.pool() + ", " + r.parameter() + " " + value;
    }

    private static ReproductionView.Stale stale(ReproductionQueries.StaleRow s) {
        String since = s.since().toString();
        return new ReproductionView.Stale(
                s.pool(),
                s.component(),
                s.from(),
                s.to(),
                since,
                "stale: " + s.from() + " \u2192 " + s.to() + " seen in pool " + s.pool() + " since " + since);
    }
}
