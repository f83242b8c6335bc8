package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShadowTablesTest {

    @Test
    void anIndexOfALiveTableIsCreatedUnderItsOwnNameOnTheCopy() {
        assertThat(ShadowTables.onShadow(
                        "CREATE INDEX proj_run_key_idx ON public.proj_run USING btree (key_id, device_id)", "proj_run"))
                .isEqualTo("CREATE INDEX proj_run_key_idx ON podium_shadow.proj_run USING btree (key_id, device_id)");
        assertThat(ShadowTables.onShadow(
                        "CREATE UNIQUE INDEX x ON proj_result USING btree (run_id) WHERE (mean IS NOT NULL)",
                        "proj_result"))
                .isEqualTo(
                        "CREATE UNIQUE INDEX x ON podium_shadow.proj_result USING btree (run_id) WHERE (mean IS NOT NULL)");
    }

    @Test
    void anIndexOfAnotherTableIsRefused() {
        assertThatThrownBy(() -> ShadowTables.onShadow(
                        "CREATE INDEX i ON public.event_store USING btree (position)", "proj_run"))
                .isInstanceOf(IllegalStateException.class);
    }
}
