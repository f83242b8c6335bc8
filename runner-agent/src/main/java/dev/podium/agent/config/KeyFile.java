package dev.podium.agent.config;

import dev.podium.agent.publish.KafkaLogin;
import dev.podium.events.sign.CommandSignature;
import dev.podium.events.sign.EventSigner;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the agent's identity and key. A key file is a Java properties file:
 * <pre>
 * agent.id=gpu-host-3
 * key.id=k-2026-01
 * key.secret=&lt;URL-safe base64, as EventSigner.newSecret() makes it&gt;
 * command.public.key=&lt;base64&gt;      # the command side's Ed25519 public key; without it the daemon takes no jobs
 * pool=default                      # optional
 * kafka.bootstrap.servers=host:9092 # optional
 * kafka.username=pk_...             # the key's own Kafka user and its password, where the broker requires a login
 * kafka.password=...
 * </pre>
 * Environment variables {@code PODIUM_AGENT_ID}, {@code PODIUM_KEY_ID}, {@code PODIUM_KEY_SECRET}, {@code PODIUM_POOL},
 * {@code PODIUM_COMMAND_PUBLIC_KEY}, {@code PODIUM_KAFKA_BOOTSTRAP}, {@code PODIUM_KAFKA_USERNAME} and
 * {@code PODIUM_KAFKA_PASSWORD} override the file, so a container can be configured without one.
 */
public final class KeyFile {

    private static final Pattern AGENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private KeyFile() {}

    /**
     * {@code commandKey} is null in a key file issued before records on podium.jobs were signed; {@code kafkaLogin} is
     * null where the broker needs no login.
     */
    public record Identity(
            String agentId,
            String keyId,
            byte[] secret,
            String pool,
            String bootstrapServers,
            KafkaLogin kafkaLogin,
            PublicKey commandKey) {}

    public static Identity load(Path file, Map<String, String> env) {
        Properties p = new Properties();
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new SettingsException("key file " + file + " does not exist");
            }
            requireOwnerOnly(file);
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new SettingsException("cannot read key file " + file + ": " + e.getMessage());
            }
        }
        String agentId = pick(env, "PODIUM_AGENT_ID", p, "agent.id");
        String keyId = pick(env, "PODIUM_KEY_ID", p, "key.id");
        String secret = pick(env, "PODIUM_KEY_SECRET", p, "key.secret");
        String pool = pick(env, "PODIUM_POOL", p, "pool");
        String bootstrap = pick(env, "PODIUM_KAFKA_BOOTSTRAP", p, "kafka.bootstrap.servers");
        String commandKey = pick(env, "PODIUM_COMMAND_PUBLIC_KEY", p, "command.public.key");
        String where = file == null ? "environment" : "key file " + file + " or environment";
        if (agentId == null) {
            throw new SettingsException("agent.id (PODIUM_AGENT_ID) is missing from the " + where);
        }
        if (!AGENT_ID.matcher(agentId).matches()) {
            throw new SettingsException(
                    "agent.id '" + agentId + "' must be 1-128 characters of letters, digits, '.', '_' or '-'");
        }
        if (keyId == null) {
            throw new SettingsException("key.id (PODIUM_KEY_ID) is missing from the " + where);
        }
        if (secret == null) {
            throw new SettingsException("key.secret (PODIUM_KEY_SECRET) is missing from the " + where);
        }
        byte[] secretBytes;
        try {
            secretBytes = EventSigner.secretBytes(secret);
        } catch (IllegalArgumentException e) {
            throw new SettingsException("key.secret is not URL-safe base64");
        }
        if (secretBytes.length < 16) {
            throw new SettingsException(
                    "key.secret is too short: " + secretBytes.length + " bytes, at least 16 needed");
        }
        PublicKey command;
        try {
            command = commandKey == null ? null : CommandSignature.publicKey(commandKey);
        } catch (IllegalArgumentException e) {
            throw new SettingsException("command.public.key is not a base64 Ed25519 public key");
        }
        return new Identity(
                agentId,
                keyId,
                secretBytes,
                pool == null ? "default" : pool,
                bootstrap,
                KafkaLogin.of(env, p),
                command);
    }

    /**
     * Refuses a key file that anyone but its owner may read or write: another local user (or a workload under another
     * uid) could then sign as this agent, or swap its key.
     */
    static void requireOwnerOnly(Path file) {
        Set<PosixFilePermission> mode;
        try {
            mode = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return; // no POSIX modes on this file system: its ACLs are the operator's to set
        } catch (IOException e) {
            throw new SettingsException("cannot read the mode of key file " + file + ": " + e.getMessage());
        }
        Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
        open.addAll(mode);
        open.retainAll(EnumSet.of(
                PosixFilePermission.GROUP_READ,
                PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_WRITE));
        if (!open.isEmpty()) {
            throw new SettingsException("key file " + file + " is open to others (mode "
                    + PosixFilePermissions.toString(mode) + "): only its owner may read it; run chmod 600 " + file);
        }
    }

    private static String pick(Map<String, String> env, String envName, Properties p, String key) {
        String v = env.get(envName);
        if (v == null || v.isBlank()) {
            v = p.getProperty(key);
        }
        return v == null || v.isBlank() ? null : v.trim();
    }
}
