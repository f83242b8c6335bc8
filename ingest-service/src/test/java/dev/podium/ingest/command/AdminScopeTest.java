package dev.podium.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdminScopeTest {

    @Test
    void readingNeedsReadAndTheFleetsCommandsNeedOperate() {
        assertThat(AdminScope.required("GET", "/admin/campaigns/x")).isEqualTo(AdminScope.READ);
        assertThat(AdminScope.required("head", "admin/jobs/x")).isEqualTo(AdminScope.READ);
        assertThat(AdminScope.required("POST", "/admin/campaigns")).isEqualTo(AdminScope.OPERATE);
        assertThat(AdminScope.required("DELETE", "/admin/campaigns/c/schedule")).isEqualTo(AdminScope.OPERATE);
        assertThat(AdminScope.required("POST", "admin/jobs/j/cancel")).isEqualTo(AdminScope.OPERATE);
        assertThat(AdminScope.required("POST", "/admin/catalog/hide")).isEqualTo(AdminScope.OPERATE);
        assertThat(AdminScope.required("POST", "/admin/catalog/show")).isEqualTo(AdminScope.OPERATE);
        assertThat(AdminScope.required("GET", "/admin/catalog/hidden")).isEqualTo(AdminScope.READ);
        assertThat(AdminScope.required("POST", "/admin/reproductions/r/rerun")).isEqualTo(AdminScope.OPERATE);
    }

    @Test
    void keysImportsRebuildsAndAnythingUnlistedNeedAdmin() {
        for (String path : new String[] {
            "/admin/agents",
            "/admin/agents/a/keys/rotate",
            "/admin/keys/k/revoke",
            "/admin/published",
            "/admin/rebuild",
            "/admin/campaigns/c",
            "/admin/jobs/j/cancel/extra",
            "/admin/catalog/hide/extra",
            "/admin/reproductions/r/rerun/extra",
            "/admin/claims/s/c/reproduce",
            "/admin/new"
        }) {
            assertThat(AdminScope.required("POST", path)).as(path).isEqualTo(AdminScope.ADMIN);
        }
        assertThat(AdminScope.required("PUT", "/admin/campaigns")).isEqualTo(AdminScope.ADMIN);
        assertThat(AdminScope.required("DELETE", "/admin/campaigns/c")).isEqualTo(AdminScope.ADMIN);
    }

    @Test
    void eachScopeIncludesTheOnesBelowIt() {
        assertThat(AdminScope.ADMIN.includes(AdminScope.OPERATE)).isTrue();
        assertThat(AdminScope.OPERATE.includes(AdminScope.READ)).isTrue();
        assertThat(AdminScope.READ.includes(AdminScope.OPERATE)).isFalse();
        assertThat(AdminScope.OPERATE.includes(AdminScope.ADMIN)).isFalse();
    }

    @Test
    void anUnknownScopeIsAnError() {
        assertThat(AdminScope.parse(" Operate ")).isEqualTo(AdminScope.OPERATE);
        assertThatThrownBy(() -> AdminScope.parse("root")).isInstanceOf(IllegalArgumentException.class);
    }
}
