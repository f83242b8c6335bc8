package dev.podium.events.published;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Plans for the seed claims (examples/published): each varies the one dimension the claim is about. */
class ReproductionTest {

    private static Map<String, PublishedClaim> claims;

    @BeforeAll
    static void load() throws Exception {
        claims = ClaimFile.parseDirectory(Path.of("..", "examples", "published")).stream()
                .collect(Collectors.toMap(PublishedClaim::claimId, Function.identity()));
    }

    private static Reproduction.Result plan(String id) {
        PublishedClaim c = claims.get(id);
        RatioBasis r = c.ratio();
        return Reproduction.plan(
                c,
                r == null || r.numeratorClaimId() == null ? null : claims.get(r.numeratorClaimId()),
                r == null || r.denominatorClaimId() == null ? null : claims.get(r.denominatorClaimId()));
    }

    @Test
    void oneWorkerInsteadOfNoneVariesTheWorkersOfTheReferenceWorkload() {
        Reproduction p = plan("h100-workers1-vs-workers0").plan().orElseThrow();
        assertThat(p.dimension()).isEqualTo("dataloader_num_workers");
        assertThat(p.crossDevice()).isFalse();
        assertThat(p.spec().adapter()).isEqualTo("reference");
        assertThat(p.spec().matrix()).isEqualTo(Map.of("dataloader_num_workers", List.of("0", "1")));
        assertThat(p.spec().parameters())
                .containsEntry("dataloader", "cpu")
                .doesNotContainKey("dataloader_num_workers");
        assertThat(p.metric()).isEqualTo("train_samples_per_second");
    }

    @Test
    void mediapipeAgainstTheDefaultLoaderIsTheDevicePipelineAgainstTheCpu() {
        Reproduction p = plan("gaudi2-mediapipe-vs-best-default").plan().orElseThrow();
        assertThat(p.dimension()).isEqualTo("dataloader");
        assertThat(p.spec().matrix()).isEqualTo(Map.of("dataloader", List.of("cpu", "device")));
        assertThat(p.spec().parameters()).containsEntry("dataloader_num_workers", "2");
    }

    @Test
    void aDeviceAgainstAnotherIsTheSamePointOnTwoPools() {
        Reproduction p = plan("gaudi2-vs-a100-workers0").plan().orElseThrow();
        assertThat(p.crossDevice()).isTrue();
        assertThat(p.compared()).isEqualTo("Intel Gaudi 2 HPU");
        assertThat(p.baseline()).isEqualTo("NVIDIA A100 80GB GPU");
        assertThat(p.spec().matrix()).isEmpty();
        assertThat(p.spec().parameters()).containsEntry("dataloader_num_workers", "0");
    }

    @Test
    void aSpeedUpOverEagerIsCompiledAgainstEagerOnTheSameDevice() {
        Reproduction p = plan("a100-resnet50-ait-vs-eager").plan().orElseThrow();
        assertThat(p.dimension()).isEqualTo("compiler");
        assertThat(p.spec().adapter()).isEqualTo("inference");
        assertThat(p.spec().matrix()).isEqualTo(Map.of("compiler", List.of("eager", "compiled")));
        assertThat(p.metric()).isEqualTo("inference_samples_per_second");
    }

    @Test
    void aFigureIsNotAClaimToReproduce() {
        Reproduction.Result r = plan("gaudi2-workers0");
        assertThat(r.plan()).isEmpty();
        assertThat(r.reason()).contains("only a ratio claim");
    }

    @Test
    void atOneDeviceTheWorkersRatioRunsOneProcessARunAndKeepsTheRestOfThePlan() {
        Reproduction claimed = plan("h100-workers2-vs-workers1").plan().orElseThrow();
        assertThat(claimed.spec().parameters()).containsEntry("nproc", "8");

        Reproduction small = claimed.atDevices(1).plan().orElseThrow();
        assertThat(small.spec().parameters()).containsEntry("nproc", "1").containsEntry("dataloader", "cpu");
        assertThat(small.spec().matrix()).isEqualTo(claimed.spec().matrix());
        assertThat(small.dimension()).isEqualTo(claimed.dimension());
        assertThat(small.metric()).isEqualTo(claimed.metric());
        assertThat(claimed.spec().parameters()).containsEntry("nproc", "8");
    }

    @Test
    void aClaimAboutTheNumberOfAcceleratorsCannotBeMeasuredAtAFixedNumber() {
        Reproduction workers = plan("h100-workers2-vs-workers1").plan().orElseThrow();
        Reproduction scaling = new Reproduction(
                workers.source(),
                workers.claimId(),
                "total_accelerators",
                "1",
                "8",
                "nproc",
                "1",
                "8",
                workers.spec(),
                workers.metric());

        Reproduction.Result r = scaling.atDevices(1);

        assertThat(r.plan()).isEmpty();
        assertThat(r.reason()).contains("varies the number of accelerators");
    }

    @Test
    void theInferenceWorkloadHasNoNumberOfAcceleratorsToChoose() {
        Reproduction.Result r =
                plan("a100-resnet50-ait-vs-eager").plan().orElseThrow().atDevices(1);

        assertThat(r.plan()).isEmpty();
        assertThat(r.reason()).contains("inference workload");
    }

    @Test
    void everySeedRatioClaimHasAPlanOrAReason() {
        claims.values().stream().filter(PublishedClaim::isRatio).forEach(c -> {
            Reproduction.Result r = plan(c.claimId());
            assertThat(r.plan().isPresent() || r.reason() != null)
                    .as(c.claimId())
                    .isTrue();
        });
    }
}
