package dev.podium.query.support;

import dev.podium.events.published.ClaimFile;
import dev.podium.events.published.PublishedClaim;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The published figures and claims of seeds.md, read from the project's claim files ({@code examples/published}) with the
 * events module's {@link ClaimFile}, as the importer reads them.
 */
public final class PublishedSeeds {

    public static final String SOURCE = "hf-habana-bridgetower";
    public static final String BENCHMARK = "bridgetower-finetune";
    public static final String METRIC = "train_samples_per_second";
    public static final String GAUDI2 = "intel-gaudi2";
    public static final String H100 = "nvidia-h100";
    public static final String A100 = "nvidia-a100-80gb";

    private static List<PublishedClaim> all;

    private PublishedSeeds() {}

    public static Path directory() {
        return Path.of(System.getProperty("podium.examples.published", "../examples/published"));
    }

    /** Every claim of every file. */
    public static synchronized List<PublishedClaim> all() {
        if (all == null) {
            try {
                all = ClaimFile.parseDirectory(directory());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    /** The claims of seeds.md section 1. */
    public static List<PublishedClaim> bridgetower() {
        return all().stream().filter(c -> SOURCE.equals(c.source())).toList();
    }

    /** The key id of a BridgeTower figure, e.g. {@code gaudi2-workers0}. */
    public static String keyOf(String claimId) {
        return bridgetower().stream()
                .filter(c -> c.claimId().equals(claimId))
                .findFirst()
                .orElseThrow()
                .key()
                .id();
    }
}
