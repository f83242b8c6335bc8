package dev.podium.events.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.fleet.MinimumVersions.AuditVerdict;
import dev.podium.events.fleet.MinimumVersions.Finding;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinimumVersionsTest {

    private final MinimumVersions table = MinimumVersions.table();

    @Test
    void aDriverBelowItsMinimumFailsAndANewerRuntimePasses() {
        List<Finding> audit = table.audit("nvidia-h100-sxm-80gb", "470.82.01", "CUDA 12.4", null);

        assertThat(audit)
                .extracting(Finding::verdict)
                .containsExactly(AuditVerdict.FAIL, AuditVerdict.PASS, AuditVerdict.NO_MINIMUM);
        assertThat(audit.get(0).minimum().version()).isEqualTo("525.60.13");
        assertThat(audit.get(0).minimum().source()).contains("https://docs.nvidia.com/cuda/");
        assertThat(MinimumVersions.passes(audit)).isFalse();
    }

    @Test
    void versionsCompareByNumberNotByText() {
        assertThat(table.audit("nvidia-h100-sxm-80gb", "535.104.05", "CUDA 12.10", null))
                .extracting(Finding::verdict)
                .containsExactly(AuditVerdict.PASS, AuditVerdict.PASS, AuditVerdict.NO_MINIMUM);
        assertThat(table.audit("intel-gaudi2", "1.9.0", "SynapseAI 1.16.0", "hl-1.16.0-fw-50.1.0"))
                .extracting(Finding::verdict)
                .containsExactly(AuditVerdict.FAIL, AuditVerdict.PASS, AuditVerdict.PASS);
    }

    @Test
    void aMissingOrUnreadableVersionIsNotReportedAndFails() {
        List<Finding> audit = table.audit("intel-gaudi2", null, "unknown", "99999999999999999999.1");

        assertThat(audit)
                .extracting(Finding::verdict)
                .containsExactly(AuditVerdict.NOT_REPORTED, AuditVerdict.NOT_REPORTED, AuditVerdict.PASS);
        assertThat(MinimumVersions.passes(audit)).isFalse();
    }

    @Test
    void anUnknownDeviceHasNoMinimums() {
        assertThat(table.audit("acme-x1", "1", "2", "3"))
                .extracting(Finding::verdict)
                .containsOnly(AuditVerdict.NO_MINIMUM);
    }

    @Test
    void everyRowNamesAKnownDeviceAndASource() {
        for (String device : List.of(
                "nvidia-h100",
                "nvidia-h100-sxm-80gb",
                "nvidia-h100-pcie-80gb",
                "nvidia-a100-sxm-80gb",
                "intel-gaudi2")) {
            assertThat(DeviceAliases.byId(device)).as(device).isPresent();
            assertThat(table.minimum(device, "driver").orElseThrow().source()).contains("https://");
        }
    }
}
