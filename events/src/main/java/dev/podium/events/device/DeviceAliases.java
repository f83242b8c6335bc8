package dev.podium.events.device;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Maps the names vendor tools and publications use to canonical devices. Rules are tried in order, most specific first,
 * so "NVIDIA H100 80GB HBM3" (the SXM card as nvidia-smi names it) and "NVIDIA H100 PCIe" land on different devices while
 * "NVIDIA H100 GPU" from a press release lands on the variant-unspecified {@code nvidia-h100}.
 */
public final class DeviceAliases {

    private record Rule(Pattern pattern, DeviceModel device) {}

    private static final List<Rule> RULES = List.of(
            rule("gh200", "nvidia-gh200", "NVIDIA", "NVIDIA GH200 Grace Hopper", true),
            rule("h200.*nvl", "nvidia-h200-nvl-141gb", "NVIDIA", "NVIDIA H200 NVL", true),
            rule("h200", "nvidia-h200-sxm-141gb", "NVIDIA", "NVIDIA H200 SXM 141GB", true),
            rule("h100.*nvl", "nvidia-h100-nvl-94gb", "NVIDIA", "NVIDIA H100 NVL", true),
            rule("h100.*pcie", "nvidia-h100-pcie-80gb", "NVIDIA", "NVIDIA H100 PCIe 80GB", true),
            rule("h100.*(sxm|hbm3)", "nvidia-h100-sxm-80gb", "NVIDIA", "NVIDIA H100 SXM 80GB", true),
            rule("h100", "nvidia-h100", "NVIDIA", "NVIDIA H100 (variant unspecified)", false),
            rule(
                    "a100.*pcie.*40\\s*gb|a100.*40\\s*gb.*pcie",
                    "nvidia-a100-pcie-40gb",
                    "NVIDIA",
                    "NVIDIA A100 PCIe 40GB",
                    true),
            rule("a100.*pcie", "nvidia-a100-pcie-80gb", "NVIDIA", "NVIDIA A100 PCIe 80GB", true),
            rule("a100.*sxm.*40\\s*gb", "nvidia-a100-sxm-40gb", "NVIDIA", "NVIDIA A100 SXM 40GB", true),
            rule("a100.*sxm", "nvidia-a100-sxm-80gb", "NVIDIA", "NVIDIA A100 SXM 80GB", true),
            rule("a100.*40\\s*gb", "nvidia-a100-40gb", "NVIDIA", "NVIDIA A100 40GB (variant unspecified)", false),
            rule("a100.*80\\s*gb", "nvidia-a100-80gb", "NVIDIA", "NVIDIA A100 80GB (variant unspecified)", false),
            rule("a100", "nvidia-a100", "NVIDIA", "NVIDIA A100 (variant unspecified)", false),
            rule("mi300x", "amd-mi300x", "AMD", "AMD Instinct MI300X", true),
            rule("mi250x", "amd-mi250x", "AMD", "AMD Instinct MI250X", true),
            rule("mi250", "amd-mi250", "AMD", "AMD Instinct MI250", true),
            rule("mi210", "amd-mi210", "AMD", "AMD Instinct MI210", true),
            rule("mi100", "amd-mi100", "AMD", "AMD Instinct MI100", true),
            rule("gaudi\\s*3|hl-325", "intel-gaudi3", "Intel", "Intel Gaudi 3", true),
            rule("gaudi\\s*2|hl-225", "intel-gaudi2", "Intel", "Intel Gaudi 2", true),
            rule("gaudi\\s*1\\b|hl-20[05]", "intel-gaudi1", "Intel", "Intel Gaudi 1", true),
            rule("tpu\\s*v5p", "google-tpu-v5p", "Google", "Google TPU v5p", true),
            rule("tpu\\s*v5\\s*lite|tpu\\s*v5e", "google-tpu-v5e", "Google", "Google TPU v5e", true),
            rule("tpu\\s*v5\\b", "google-tpu-v5p", "Google", "Google TPU v5p", true),
            rule("tpu\\s*v6\\s*lite|tpu\\s*v6e", "google-tpu-v6e", "Google", "Google TPU v6e", true),
            rule("tpu\\s*v4", "google-tpu-v4", "Google", "Google TPU v4", true),
            rule("tpu", "google-tpu", "Google", "Google TPU (variant unspecified)", false));

    /** The devices by canonical id (the first rule naming one wins); pages look labels up for every row. */
    private static final Map<String, DeviceModel> BY_ID = RULES.stream()
            .map(Rule::device)
            .collect(Collectors.toMap(DeviceModel::id, d -> d, (first, later) -> first));

    /**
     * The shape of every id {@link #cpuDeviceId} makes, as a regular expression that Java and PostgreSQL read alike:
     * {@code cpu-} and a slug of lower-case letters and digits joined by single hyphens.
     */
    public static final String CPU_ID_PATTERN = "cpu-[a-z0-9]+(-[a-z0-9]+)*";

    private static final Pattern CPU_ID = Pattern.compile(CPU_ID_PATTERN);

    /** A CPU label's words before " (CPU)" are cut to this many characters: an agent chooses how long its model is. */
    static final int MAX_CPU_WORDS = 60;

    /** Words of CPU models written otherwise than capitalised; a word with a digit is a model number, upper case. */
    private static final Map<String, String> CPU_WORDS = Map.of(
            "amd", "AMD", "epyc", "EPYC", "qemu", "QEMU", "kvm", "KVM", "i3", "i3", "i5", "i5", "i7", "i7", "i9", "i9");

    private DeviceAliases() {}

    private static Rule rule(String regex, String id, String vendor, String label, boolean specified) {
        return new Rule(
                Pattern.compile(regex, Pattern.CASE_INSENSITIVE), new DeviceModel(id, vendor, label, specified));
    }

    /** The canonical device for a reported or published name, or empty when no rule knows it. */
    public static Optional<DeviceModel> resolve(String reportedName) {
        if (reportedName == null || reportedName.isBlank()) {
            return Optional.empty();
        }
        String name = reportedName.toLowerCase(Locale.ROOT);
        return RULES.stream()
                .filter(r -> r.pattern.matcher(name).find())
                .map(Rule::device)
                .findFirst();
    }

    /** A device by canonical id, e.g. for labels on pages. */
    public static Optional<DeviceModel> byId(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(BY_ID.get(id));
    }

    /**
     * Whether pages may show a device id as a real device: a canonical id of this table, or a CPU id of the shape
     * {@link #cpuDeviceId} makes. Any other id is text an agent chose, which could name an accelerator that does not exist.
     */
    public static boolean known(String id) {
        return id != null && (BY_ID.containsKey(id) || CPU_ID.matcher(id).matches());
    }

    /**
     * The label pages show for a device id: this table's, or for a CPU id ({@link #cpuDeviceId} of the model in the host
     * fingerprint) its words written as a model is, such as "AMD EPYC 7763 64 Core (CPU)"; empty for any other id.
     */
    public static Optional<String> label(String id) {
        return byId(id).map(DeviceModel::label).or(() -> cpuLabel(id));
    }

    /**
     * A CPU id's label, built from the id alone so that one id always reads the same on every page: its words are
     * letters and digits only (the id's shape), at most {@link #MAX_CPU_WORDS} characters, and always marked "(CPU)", so
     * an id that spells an accelerator's name still reads as a CPU.
     */
    private static Optional<String> cpuLabel(String id) {
        if (id == null || !CPU_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        String words = Arrays.stream(id.substring("cpu-".length()).split("-"))
                .map(DeviceAliases::cpuWord)
                .collect(Collectors.joining(" "));
        if (words.length() > MAX_CPU_WORDS) {
            words = words.substring(0, MAX_CPU_WORDS - 1).strip() + "\u2026";
        }
        return Optional.of(words + " (CPU)");
    }

    private static String cpuWord(String word) {
        String known = CPU_WORDS.get(word);
        if (known != null) {
            return known;
        }
        return word.chars().anyMatch(Character::isDigit)
                ? word.toUpperCase(Locale.ROOT)
                : Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /** The canonical ids of this table. */
    public static List<String> ids() {
        return List.copyOf(BY_ID.keySet());
    }

    /** Every canonical device this table knows. */
    public static List<DeviceModel> all() {
        return RULES.stream().map(Rule::device).distinct().toList();
    }

    /**
     * The canonical id for a host's CPU when a run used no accelerator: {@code cpu-} and a slug of the model, e.g.
     * {@code cpu-intel-xeon-platinum-8480}.
     */
    public static String cpuDeviceId(String cpuModel) {
        String slug = cpuModel == null
                ? "unknown"
                : cpuModel.toLowerCase(Locale.ROOT)
                        .replaceAll("\\(r\\)|\\(tm\\)|cpu|processor|@.*$", " ")
                        .replaceAll("[^a-z0-9]+", "-")
                        .replaceAll("^-+|-+$", "");
        return "cpu-" + (slug.isEmpty() ? "unknown" : slug);
    }
}
