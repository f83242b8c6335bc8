package dev.podium.ingest.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.config.IngestConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

class IdentityPlanTest {

    private static final String A = "pk_" + "a".repeat(24);
    private static final String B = "pk_" + "b".repeat(24);
    private static final long RATE = 1_048_576;
    private static final IngestConfig.Topics TOPICS =
            IngestConfigs.load(Map.of()).topics();

    @Test
    void aKeyWithoutAnIdentityGetsItsAclsQuotaAndLogin() {
        IdentityPlan plan = IdentityPlan.of(Map.of(A, "pw"), empty(), TOPICS, RATE);
        assertThat(plan.acls()).containsExactlyInAnyOrderElementsOf(AgentAcls.of(A, TOPICS));
        assertThat(plan.quotas()).containsExactly(A);
        assertThat(plan.credentials()).containsExactlyEntriesOf(Map.of(A, "pw"));
        assertThat(plan.remove()).isEmpty();
    }

    @Test
    void aBrokerThatMatchesTheKeysNeedsNothing() {
        BrokerIdentities.Present present = new BrokerIdentities.Present(
                Set.of(A), Map.of(A, new HashSet<>(AgentAcls.of(A, TOPICS))), Map.of(A, (double) RATE));
        assertThat(IdentityPlan.of(Map.of(A, "pw"), present, TOPICS, RATE).isEmpty())
                .isTrue();
    }

    @Test
    void theIdentityOfAKeyNoLongerWantedIsRemovedEvenInPart() {
        BrokerIdentities.Present present = new BrokerIdentities.Present(
                Set.of(A), Map.of(B, Set.of(AgentAcls.of(B, TOPICS).get(0))), Map.of());
        IdentityPlan plan = IdentityPlan.of(Map.of(), present, TOPICS, RATE);
        assertThat(plan.remove()).containsExactly(A, B);
        assertThat(plan.credentials()).isEmpty();
    }

    @Test
    void aMissingAclOrAChangedQuotaIsRestoredWithoutTouchingTheLogin() {
        List<AclBinding> all = AgentAcls.of(A, TOPICS);
        BrokerIdentities.Present present = new BrokerIdentities.Present(
                Set.of(A), Map.of(A, new HashSet<>(all.subList(1, all.size()))), Map.of(A, 5.0));
        IdentityPlan plan = IdentityPlan.of(Map.of(A, "pw"), present, TOPICS, RATE);
        assertThat(plan.acls()).containsExactly(all.get(0));
        assertThat(plan.quotas()).containsExactly(A);
        assertThat(plan.credentials()).isEmpty();
    }

    @Test
    void anAgentMayWriteEventsAndHeartbeatsAndReadJobsOnly() {
        assertThat(AgentAcls.of(A, TOPICS))
                .allSatisfy(b -> {
                    assertThat(b.pattern().resourceType()).isEqualTo(ResourceType.TOPIC);
                    assertThat(b.entry().principal()).isEqualTo("User:" + A);
                })
                .extracting(b -> b.pattern().name() + " " + b.entry().operation())
                .containsExactlyInAnyOrder(
                        "podium.events " + AclOperation.WRITE,
                        "podium.events " + AclOperation.DESCRIBE,
                        "podium.heartbeats " + AclOperation.WRITE,
                        "podium.heartbeats " + AclOperation.DESCRIBE,
                        "podium.jobs " + AclOperation.READ,
                        "podium.jobs " + AclOperation.DESCRIBE);
    }

    @Test
    void onlyUsersNamedLikeKeyIdsAreManaged() {
        assertThat(AgentAcls.managed(A)).isTrue();
        assertThat(List.of("ingest", "admin", "agent", "pk_short", A + "0", "PK_" + "a".repeat(24)))
                .noneMatch(AgentAcls::managed);
    }

    private static BrokerIdentities.Present empty() {
        return new BrokerIdentities.Present(Set.of(), Map.of(), Map.of());
    }
}
