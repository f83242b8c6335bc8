package dev.podium.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * Services meet only in Kafka and the database schema (docs/DESIGN.md "Modules"): none uses another's code, and the
 * event contract uses nothing of ours.
 */
final class Layering {

    /** The modules with main code. */
    static final List<String> MODULES = List.of("events", "ingest-service", "query-service", "runner-agent", "bench");

    static final String EVENTS = "dev.podium.events..";
    static final String INGEST = "dev.podium.ingest..";
    static final String QUERY = "dev.podium.query..";
    static final String AGENT = "dev.podium.agent..";
    static final String BENCH = "dev.podium.bench..";
    static final String RELIABILITY = "dev.podium.reliability..";

    static final ArchRule EVENTS_DEPENDS_ON_NOTHING_OF_OURS = noClasses()
            .that()
            .resideInAPackage(EVENTS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INGEST, QUERY, AGENT, BENCH, RELIABILITY)
            .as("events depends on nothing of ours");
    static final ArchRule INGEST_USES_NO_OTHER_SERVICE = noClasses()
            .that()
            .resideInAPackage(INGEST)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(QUERY, AGENT, BENCH, RELIABILITY)
            .as("ingest-service uses no other service's code");
    static final ArchRule QUERY_USES_NO_OTHER_SERVICE = noClasses()
            .that()
            .resideInAPackage(QUERY)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INGEST, AGENT, BENCH, RELIABILITY)
            .as("query-service uses no other service's code");
    static final ArchRule AGENT_USES_NO_OTHER_SERVICE = noClasses()
            .that()
            .resideInAPackage(AGENT)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INGEST, QUERY, BENCH, RELIABILITY)
            .as("runner-agent uses no other service's code");

    static final List<ArchRule> ALL = List.of(
            EVENTS_DEPENDS_ON_NOTHING_OF_OURS,
            INGEST_USES_NO_OTHER_SERVICE,
            QUERY_USES_NO_OTHER_SERVICE,
            AGENT_USES_NO_OTHER_SERVICE);

    private Layering() {}
}
