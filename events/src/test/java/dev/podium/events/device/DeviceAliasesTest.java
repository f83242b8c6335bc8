package dev.podium.events.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeviceAliasesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            NVIDIA H100 80GB HBM3        | nvidia-h100-sxm-80gb  | true
            NVIDIA H100 PCIe             | nvidia-h100-pcie-80gb | true
            NVIDIA H100 NVL              | nvidia-h100-nvl-94gb  | true
            NVIDIA H100 GPU              | nvidia-h100           | false
            NVIDIA H100 80GB             | nvidia-h100           | false
            H100 SXM5                    | nvidia-h100-sxm-80gb  | true
            NVIDIA A100-SXM4-80GB        | nvidia-a100-sxm-80gb  | true
            NVIDIA A100 80GB PCIe        | nvidia-a100-pcie-80gb | true
            NVIDIA A100-SXM4-40GB        | nvidia-a100-sxm-40gb  | true
            NVIDIA A100-PCIE-40GB        | nvidia-a100-pcie-40gb | true
            NVIDIA A100 80GB GPU         | nvidia-a100-80gb      | false
            NVIDIA A100 80GB             | nvidia-a100-80gb      | false
            NVIDIA A100 40GB             | nvidia-a100-40gb      | false
            NVIDIA A100                  | nvidia-a100           | false
            NVIDIA H200                  | nvidia-h200-sxm-141gb | true
            NVIDIA H200 NVL              | nvidia-h200-nvl-141gb | true
            NVIDIA GH200 480GB           | nvidia-gh200          | true
            AMD Instinct MI250X          | amd-mi250x            | true
            MI250                        | amd-mi250             | true
            AMD Instinct MI250           | amd-mi250             | true
            AMD Instinct MI300X          | amd-mi300x            | true
            AMD Instinct MI210           | amd-mi210             | true
            HL-225                       | intel-gaudi2          | true
            Intel Gaudi 2 HPU            | intel-gaudi2          | true
            Gaudi2                       | intel-gaudi2          | true
            HL-325L                      | intel-gaudi3          | true
            Intel Gaudi 3                | intel-gaudi3          | true
            HL-205                       | intel-gaudi1          | true
            TPU v5 lite                  | google-tpu-v5e        | true
            TPU v5e                      | google-tpu-v5e        | true
            TPU v5                       | google-tpu-v5p        | true
            TPU v5p                      | google-tpu-v5p        | true
            TPU v6 lite                  | google-tpu-v6e        | true
            TPU v4                       | google-tpu-v4         | true
            Google TPU                   | google-tpu            | false
            """)
    void resolvesNamesAsVendorToolsAndPressReleasesSpellThem(String name, String id, boolean specified) {
        DeviceModel d = DeviceAliases.resolve(name).orElseThrow(() -> new AssertionError("no rule for " + name));
        assertThat(d.id()).isEqualTo(id);
        assertThat(d.variantSpecified()).isEqualTo(specified);
    }

    @Test
    void resolutionIgnoresCaseAndSurroundingSpace() {
        assertThat(DeviceAliases.resolve("  nvidia h100 pcie  "))
                .map(DeviceModel::id)
                .hasValue("nvidia-h100-pcie-80gb");
    }

    @Test
    void unknownOrBlankNamesResolveToNothing() {
        assertThat(DeviceAliases.resolve("NVIDIA GeForce RTX 4090")).isEmpty();
        assertThat(DeviceAliases.resolve("")).isEmpty();
        assertThat(DeviceAliases.resolve("   ")).isEmpty();
        assertThat(DeviceAliases.resolve(null)).isEmpty();
    }

    @Test
    void variantUnspecifiedEntriesSayWhatTheyStandFor() {
        assertThat(DeviceAliases.byId("nvidia-h100")).get().satisfies(d -> {
            assertThat(d.variantSpecified()).isFalse();
            assertThat(d.label()).contains("variant unspecified");
        });
        assertThat(DeviceAliases.byId("nvidia-a100-80gb"))
                .get()
                .extracting(DeviceModel::variantSpecified)
                .isEqualTo(false);
    }

    @Test
    void everyCanonicalIdIsListedOnceAndFoundById() {
        List<DeviceModel> all = DeviceAliases.all();
        Set<String> ids = new HashSet<>();
        for (DeviceModel d : all) {
            assertThat(ids.add(d.id())).as("duplicate %s", d.id()).isTrue();
            assertThat(d.id()).matches("[a-z0-9]+(-[a-z0-9]+)*");
            assertThat(DeviceAliases.byId(d.id())).hasValue(d);
        }
        assertThat(ids)
                .contains(
                        "intel-gaudi2",
                        "nvidia-h100",
                        "nvidia-h100-sxm-80gb",
                        "nvidia-a100-80gb",
                        "amd-mi250",
                        "nvidia-h200-sxm-141gb");
        assertThat(DeviceAliases.byId("nvidia-b200")).isEmpty();
    }

    @Test
    void everyLabelResolvesBackToItsOwnDevice() {
        for (DeviceModel d : DeviceAliases.all()) {
            assertThat(DeviceAliases.resolve(d.label())).as(d.label()).hasValue(d);
        }
    }

    @Test
    void cpuDeviceIdIsASlugOfTheModel() {
        assertThat(DeviceAliases.cpuDeviceId("Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz"))
                .isEqualTo("cpu-intel-xeon-platinum-8480");
        assertThat(DeviceAliases.cpuDeviceId("AMD EPYC 7763 64-Core Processor")).isEqualTo("cpu-amd-epyc-7763-64-core");
        assertThat(DeviceAliases.cpuDeviceId(null)).isEqualTo("cpu-unknown");
        assertThat(DeviceAliases.cpuDeviceId("@@@")).isEqualTo("cpu-unknown");
    }

    @Test
    void canonicalAndCpuIdsAreKnownAndAgentChosenTextIsNot() {
        DeviceAliases.all()
                .forEach(d -> assertThat(DeviceAliases.known(d.id())).as(d.id()).isTrue());
        for (String model :
                new String[] {"Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz", "AMD EPYC 7763", null, "@@@"}) {
            assertThat(DeviceAliases.known(DeviceAliases.cpuDeviceId(model)))
                    .as(model)
                    .isTrue();
        }
        for (String invented : new String[] {
            "acme-warp-9000",
            "nvidia-h900",
            "NVIDIA-H100-SXM-80GB",
            "nvidia-h100-sxm-80gb ",
            "cpu-",
            "cpu--x",
            "cpu-X1",
            ""
        }) {
            assertThat(DeviceAliases.known(invented)).as(invented).isFalse();
        }
        assertThat(DeviceAliases.known(null)).isFalse();
    }

    @Test
    void aCpuIdReadsAsItsModelMarkedCpu() {
        assertThat(DeviceAliases.label("cpu-amd-epyc")).hasValue("AMD EPYC (CPU)");
        assertThat(DeviceAliases.label(DeviceAliases.cpuDeviceId("AMD EPYC 7763 64-Core Processor")))
                .hasValue("AMD EPYC 7763 64 Core (CPU)");
        assertThat(DeviceAliases.label(DeviceAliases.cpuDeviceId("Intel(R) Core(TM) i7-12700K CPU @ 3.60GHz")))
                .hasValue("Intel Core i7 12700K (CPU)");
        assertThat(DeviceAliases.label(DeviceAliases.cpuDeviceId(null))).hasValue("Unknown (CPU)");
        assertThat(DeviceAliases.label("nvidia-h100-sxm-80gb")).hasValue("NVIDIA H100 SXM 80GB");
    }

    @Test
    void aHostileCpuIdNeverReadsAsAnAcceleratorNorRunsLong() {
        // The id is the agent's text: one that spells an accelerator still says CPU, and a long one is cut.
        assertThat(DeviceAliases.label("cpu-nvidia-h100-sxm-80gb")).hasValue("Nvidia H100 Sxm 80GB (CPU)");
        String longId = "cpu-" + "a1-".repeat(400) + "z";
        assertThat(DeviceAliases.label(longId))
                .hasValueSatisfying(l -> assertThat(l)
                        .hasSize(DeviceAliases.MAX_CPU_WORDS + " (CPU)".length())
                        .endsWith("\u2026 (CPU)"));
        for (String notAnId : new String[] {"cpu-<script>", "cpu-X1", "cpu--x", "cpu-", "acme-warp-9000", "", null}) {
            assertThat(DeviceAliases.label(notAnId)).as(String.valueOf(notAnId)).isEmpty();
        }
    }
}
