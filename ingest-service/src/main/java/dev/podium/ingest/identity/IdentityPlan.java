package dev.podium.ingest.identity;

import dev.podium.ingest.config.IngestConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.acl.AclBinding;

/**
 * What makes the broker's agent identities match the keys that verify records: the ACLs, quotas and credentials to
 * create, and the identities to remove. A credential that exists is left alone (the broker never shows a password, and
 * a key's password never changes); so a plan of a broker already matching the keys is empty.
 *
 * @param credentials key id to password, for each key whose login is missing
 * @param quotas key ids whose produce quota is missing or other than configured
 * @param remove key ids of identities, whole or partial, of keys that no longer verify records
 */
public record IdentityPlan(
        List<AclBinding> acls, Set<String> quotas, Map<String, String> credentials, Set<String> remove) {

    public static IdentityPlan of(
            Map<String, String> wanted,
            BrokerIdentities.Present present,
            IngestConfig.Topics topics,
            long producerByteRate) {
        List<AclBinding> acls = new ArrayList<>();
        Set<String> quotas = new TreeSet<>();
        Map<String, String> credentials = new TreeMap<>();
        for (Map.Entry<String, String> key : new TreeMap<>(wanted).entrySet()) {
            String keyId = key.getKey();
            Set<AclBinding> held = present.acls().getOrDefault(keyId, Set.of());
            AgentAcls.of(keyId, topics).stream().filter(b -> !held.contains(b)).forEach(acls::add);
            Double rate = present.producerByteRates().get(keyId);
            if (rate == null || rate != producerByteRate) {
                quotas.add(keyId);
            }
            if (!present.users().contains(keyId)) {
                credentials.put(keyId, key.getValue());
            }
        }
        Set<String> remove = new TreeSet<>(present.keyIds());
        remove.removeAll(wanted.keySet());
        return new IdentityPlan(acls, quotas, credentials, remove);
    }

    public boolean isEmpty() {
        return acls.isEmpty() && quotas.isEmpty() && credentials.isEmpty() && remove.isEmpty();
    }

    /** Key ids this plan changes, for the log. */
    public Set<String> keyIds() {
        Set<String> all = new TreeSet<>(quotas);
        all.addAll(credentials.keySet());
        all.addAll(remove);
        acls.forEach(b -> AgentAcls.keyIdOf(b).ifPresent(all::add));
        return all;
    }
}
