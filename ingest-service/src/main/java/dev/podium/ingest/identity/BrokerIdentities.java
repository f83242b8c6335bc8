package dev.podium.ingest.identity;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.resource.ResourcePatternFilter;

/**
 * The agent identities on the broker, through Kafka's Admin API under ingest's login: SCRAM credentials, ACLs and
 * produce quotas of the users named by key ids ({@link AgentAcls#managed}). Its own admin client, so that a call waits
 * at most {@code broker-timeout} for an unreachable broker.
 */
@ApplicationScoped
public class BrokerIdentities {

    static final String PRODUCER_BYTE_RATE = "producer_byte_rate";
    private static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_512;
    private static final int ITERATIONS = 8192;

    /** The managed identities the broker holds now, in whole or in part, by key id. */
    public record Present(Set<String> users, Map<String, Set<AclBinding>> acls, Map<String, Double> producerByteRates) {

        public Set<String> keyIds() {
            Set<String> all = new HashSet<>(users);
            all.addAll(acls.keySet());
            all.addAll(producerByteRates.keySet());
            return all;
        }
    }

    private final IngestConfig config;
    private volatile Admin admin;

    public BrokerIdentities(IngestConfig config) {
        this.config = config;
    }

    public Present present() throws ExecutionException, InterruptedException {
        Set<String> users = new HashSet<>();
        for (String user : admin().describeUserScramCredentials().users().get()) {
            if (AgentAcls.managed(user)) {
                users.add(user);
            }
        }
        Map<String, Set<AclBinding>> acls = new HashMap<>();
        for (AclBinding b : admin().describeAcls(AclBindingFilter.ANY).values().get()) {
            AgentAcls.keyIdOf(b)
                    .ifPresent(
                            k -> acls.computeIfAbsent(k, x -> new HashSet<>()).add(b));
        }
        Map<String, Double> rates = new HashMap<>();
        ClientQuotaFilter userQuotas =
                ClientQuotaFilter.contains(List.of(ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER)));
        admin().describeClientQuotas(userQuotas).entities().get().forEach((entity, values) -> {
            String user = entity.entries().get(ClientQuotaEntity.USER);
            if (user != null && AgentAcls.managed(user) && values.containsKey(PRODUCER_BYTE_RATE)) {
                rates.put(user, values.get(PRODUCER_BYTE_RATE));
            }
        });
        return new Present(users, acls, rates);
    }

    public void createAcls(Collection<AclBinding> bindings) throws ExecutionException, InterruptedException {
        if (!bindings.isEmpty()) {
            admin().createAcls(bindings).all().get();
        }
    }

    public void setProducerByteRate(String keyId, long bytesPerSecond) throws ExecutionException, InterruptedException {
        alterQuota(keyId, (double) bytesPerSecond);
    }

    /** Creates the login, or gives it this password. */
    public void upsertCredential(String keyId, String password) throws ExecutionException, InterruptedException {
        admin().alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                        keyId, new ScramCredentialInfo(MECHANISM, ITERATIONS), password)))
                .all()
                .get();
    }

    /**
     * Removes the identity: its ACLs first, which ends what its open sessions may do at their next request, then its
     * credential, which refuses new logins and ends open sessions at their re-authentication, then its quota. What is
     * already gone is no error.
     */
    public void remove(String keyId) throws ExecutionException, InterruptedException {
        admin().deleteAcls(List.of(new AclBindingFilter(
                        ResourcePatternFilter.ANY,
                        new AccessControlEntryFilter(
                                AgentAcls.principal(keyId), null, AclOperation.ANY, AclPermissionType.ANY))))
                .all()
                .get();
        try {
            admin().alterUserScramCredentials(List.of(new UserScramCredentialDeletion(keyId, MECHANISM)))
                    .all()
                    .get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof ResourceNotFoundException)) {
                throw e;
            }
        }
        alterQuota(keyId, null);
    }

    /** {@code rate} null removes the quota. */
    private void alterQuota(String keyId, Double rate) throws ExecutionException, InterruptedException {
        admin().alterClientQuotas(List.of(new ClientQuotaAlteration(
                        new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, keyId)),
                        List.of(new ClientQuotaAlteration.Op(PRODUCER_BYTE_RATE, rate)))))
                .all()
                .get();
    }

    private Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    int timeoutMs =
                            (int) config.agentIdentities().brokerTimeout().toMillis();
                    Properties p = new Properties();
                    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                    KafkaLogin.apply(config, p);
                    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "podium-ingest-identities");
                    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
                    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
                    admin = Admin.create(p);
                }
            }
        }
        return admin;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
