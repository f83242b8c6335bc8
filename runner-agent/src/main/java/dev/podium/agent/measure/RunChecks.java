package dev.podium.agent.measure;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.ValidityCheck;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validity checks of a run beyond its statistics ({@link Summary#validity}) and its duration
 * ({@link dev.podium.events.validate.ValueChecks#duration}): training loss that did not decrease, a device that was busy
 * or shared, and a device other than the one the job asked for. A check that cannot be observed on this host (no loss
 * reported, no accelerator tool, no device asked for) is left out rather than passed.
 */
public final class RunChecks {

    /** An accelerator busier than this just before the first repetition was already in use. */
    public static final double MAX_IDLE_UTILISATION = 10.0;
    /** Loss is compared over the first and last quarter of a repetition's measured steps, with at least this many steps. */
    public static final int MIN_LOSS_STEPS = 8;

    private RunChecks() {}

    /**
     * {@code loss_decreased}: in every repetition with at least {@link #MIN_LOSS_STEPS} reported losses, the mean loss of
     * the last quarter of steps is below that of the first quarter. Empty when no repetition reported enough losses.
     */
    public static Optional<ValidityCheck> lossDecreased(List<List<Double>> lossesPerRepetition) {
        int judged = 0;
        for (int r = 0; r < lossesPerRepetition.size(); r++) {
            List<Double> l =
                    lossesPerRepetition.get(r).stream().filter(Double::isFinite).toList();
            if (l.size() < MIN_LOSS_STEPS) {
                continue;
            }
            judged++;
            int q = l.size() / 4;
            double first = l.subList(0, q).stream()
                    .mapToDouble(Double::doubleValue)
                    .average()
                    .orElseThrow();
            double last = l.subList(l.size() - q, l.size()).stream()
                    .mapToDouble(Double::doubleValue)
                    .average()
                    .orElseThrow();
            if (!(last < first)) {
                return Optional.of(new ValidityCheck(
                        "loss_decreased",
                        false,
                        String.format(
                                Locale.ROOT,
                                "repetition %d: mean loss %.4g over the last %d steps, not below %.4g over the first %d",
                                r + 1,
                                last,
                                q,
                                first,
                                q)));
            }
        }
        return judged == 0
                ? Optional.empty()
                : Optional.of(new ValidityCheck(
                        "loss_decreased",
                        true,
                        "training loss decreased in " + judged + " of " + lossesPerRepetition.size() + " repetitions"));
    }

    /**
     * {@code device_not_shared}: the accelerators were idle just before the first repetition (utilisation at most
     * {@link #MAX_IDLE_UTILISATION} %) and no compute process other than the workload's own used them during the run.
     * Empty when the host has no accelerator tool to ask.
     */
    public static Optional<ValidityCheck> deviceNotShared(Double utilisationBeforeStart, Set<Long> foreignProcesses) {
        if (utilisationBeforeStart == null && foreignProcesses.isEmpty()) {
            return Optional.empty();
        }
        boolean busy = utilisationBeforeStart != null && utilisationBeforeStart > MAX_IDLE_UTILISATION;
        String before = utilisationBeforeStart == null
                ? "utilisation before start not reported"
                : String.format(Locale.ROOT, "utilisation before start %.0f%%", utilisationBeforeStart);
        String others = foreignProcesses.isEmpty()
                ? "no other compute process seen"
                : foreignProcesses.size() + " other compute process(es) used the device (pid "
                        + new TreeSet<>(foreignProcesses)
                                .stream()
                                        .limit(5)
                                        .map(String::valueOf)
                                        .reduce((a, b) -> a + ", " + b)
                                        .orElse("")
                        + ")";
        return Optional.of(
                new ValidityCheck("device_not_shared", !busy && foreignProcesses.isEmpty(), before + "; " + others));
    }

    /**
     * {@code device_matches}: the device the job asked for (a canonical id or a name the alias table knows) is the one
     * detected. A "variant unspecified" request (nvidia-h100) matches any of its variants. Empty when none was asked for.
     */
    public static Optional<ValidityCheck> deviceMatches(String requested, String detectedDeviceId) {
        if (requested == null || requested.isBlank()) {
            return Optional.empty();
        }
        String wanted = DeviceAliases.byId(requested.strip())
                .or(() -> DeviceAliases.resolve(requested.strip()))
                .map(DeviceModel::id)
                .orElse(requested.strip());
        boolean variantless =
                DeviceAliases.byId(wanted).map(m -> !m.variantSpecified()).orElse(false);
        boolean ok = detectedDeviceId != null
                && (detectedDeviceId.equals(wanted) || (variantless && detectedDeviceId.startsWith(wanted + "-")));
        return Optional.of(new ValidityCheck(
                "device_matches",
                ok,
                "asked for " + wanted + ", detected " + (detectedDeviceId == null ? "none" : detectedDeviceId)));
    }

    /** Process ids from {@code nvidia-smi --query-compute-apps=pid --format=csv,noheader} (one a line; "[N/A]" skipped). */
    public static Set<Long> computeProcesses(String out) {
        Set<Long> pids = new TreeSet<>();
        for (String line : out.split("\n")) {
            String f = line.split(",")[0].strip();
            if (f.matches("[0-9]{1,10}")) {
                pids.add(Long.parseLong(f));
            }
        }
        return pids;
    }
}
