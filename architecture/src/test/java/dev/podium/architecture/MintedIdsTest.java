package dev.podium.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every id the modules mint is time-ordered ({@code dev.podium.events.TimeOrderedIds}): a random one put where a
 * fleet writes (an event, a run, a stream) lands each insert on a leaf of its own in the event store's indexes.
 */
class MintedIdsTest {

    static final ArchRule IDS_ARE_TIME_ORDERED = noClasses()
            .should()
            .callMethod(UUID.class, "randomUUID")
            .as("ids are minted by TimeOrderedIds, never UUID.randomUUID()");

    @Test
    void noModuleMintsRandomIds() {
        IDS_ARE_TIME_ORDERED.check(MainClasses.read());
    }

    @Test
    void theRuleCatchesARandomId() {
        assertThatThrownBy(() -> IDS_ARE_TIME_ORDERED.check(
                        new ClassFileImporter().importPackages("dev.podium.agent.idfixture")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("AgentMintingRandomIds");
    }
}
