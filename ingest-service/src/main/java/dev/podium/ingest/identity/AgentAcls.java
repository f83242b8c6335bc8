package dev.podium.ingest.identity;

import dev.podium.ingest.config.IngestConfig;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What one agent key's Kafka identity may do: write the events and heartbeats topics, read the jobs topic, describe the
 * three, nothing else. No group: the agent assigns itself the jobs partitions and keeps its positions in its own
 * ledger file. Kafka cannot restrict a write by record key, so which streams a key may write is ingest's check (the
 * signature and the envelope's writer), not the broker's.
 */
public final class AgentAcls {

    /** The users ingest manages are named like the key ids AgentKeyStore issues; ingest, admin and others never match. */
    private static final Pattern KEY_ID = Pattern.compile("pk_[0-9a-f]{24}");

    private static final String USER = "User:";

    private AgentAcls() {}

    public static boolean managed(String user) {
        return KEY_ID.matcher(user).matches();
    }

    public static String principal(String keyId) {
        return USER + keyId;
    }

    /** The key id of an ACL's principal, when it is one of the agent identities ingest manages. */
    public static Optional<String> keyIdOf(AclBinding binding) {
        String principal = binding.entry().principal();
        if (!principal.startsWith(USER)) {
            return Optional.empty();
        }
        String user = principal.substring(USER.length());
        return managed(user) ? Optional.of(user) : Optional.empty();
    }

    public static List<AclBinding> of(String keyId, IngestConfig.Topics topics) {
        return List.of(
                allow(keyId, topics.events(), AclOperation.WRITE),
                allow(keyId, topics.events(), AclOperation.DESCRIBE),
                allow(keyId, topics.heartbeats(), AclOperation.WRITE),
                allow(keyId, topics.heartbeats(), AclOperation.DESCRIBE),
                allow(keyId, topics.jobs(), AclOperation.READ),
                allow(keyId, topics.jobs(), AclOperation.DESCRIBE));
    }

    private static AclBinding allow(String keyId, String topic, AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry(principal(keyId), "*", operation, AclPermissionType.ALLOW));
    }
}
