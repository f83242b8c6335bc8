package dev.podium.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The modules' main classes, read from each module's target/classes (the reactor builds them before this module), keep
 * the layering; and each rule is shown to catch the fixture in {@code dev.podium.*.layeringfixture} that breaks it.
 */
class LayeringTest {

    @Test
    void everyModuleKeepsTheLayering() {
        JavaClasses main = MainClasses.read();
        for (String pkg : List.of("dev.podium.events", "dev.podium.ingest", "dev.podium.query", "dev.podium.agent")) {
            assertThat(main.stream().anyMatch(c -> c.getPackageName().startsWith(pkg)))
                    .as("classes of %s were imported", pkg)
                    .isTrue();
        }
        Layering.ALL.forEach(rule -> rule.check(main));
    }

    @Test
    void eachRuleCatchesTheFixtureThatBreaksIt() {
        JavaClasses fixtures = new ClassFileImporter()
                .importPackages(
                        "dev.podium.events.layeringfixture",
                        "dev.podium.ingest.layeringfixture",
                        "dev.podium.query.layeringfixture",
                        "dev.podium.agent.layeringfixture");
        Map<ArchRule, String> broken = Map.of(
                Layering.EVENTS_DEPENDS_ON_NOTHING_OF_OURS,
                        "dev.podium.events.layeringfixture.ContractReachingIntoIngest",
                Layering.INGEST_USES_NO_OTHER_SERVICE, "dev.podium.ingest.layeringfixture.IngestCallingQuery",
                Layering.QUERY_USES_NO_OTHER_SERVICE, "dev.podium.query.layeringfixture.QueryCallingAgent",
                Layering.AGENT_USES_NO_OTHER_SERVICE, "dev.podium.agent.layeringfixture.AgentCallingIngest");
        broken.forEach((rule, offender) -> assertThatThrownBy(() -> rule.check(fixtures))
                .as(rule.getDescription())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(offender));
    }
}
