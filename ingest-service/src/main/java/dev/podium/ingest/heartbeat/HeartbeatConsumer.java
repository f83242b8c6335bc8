package dev.podium.ingest.heartbeat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.kafka.BoundedBytesDeserializer;
import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.command.JobCommands;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import dev.podium.ingest.consumer.GuardedPolls;
import dev.podium.ingest.consumer.IngestMetrics;
import dev.podium.ingest.consumer.ReadLedger;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.AgentKeyStore;
import dev.podium.ingest.verify.Verifier;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * The consumer of {@code podium.heartbeats}: each signed, well-formed heartbeat from the key's own agent upserts its
 * {@code agent_status} row with {@code last_heartbeat_at} = ingest's clock, and renews the job lease it names when that is
 * the job's active lease (same job, run, agent and epoch). Heartbeats are telemetry, not facts: a bad
 * or unsigned one is dropped with a log line and {@code podium_ingest_heartbeats_total{outcome="dropped"}}, never stored.
 */
@ApplicationScoped
public class HeartbeatConsumer {

    private static final Logger LOG = Logger.getLogger(HeartbeatConsumer.class);
    /** Kafka's default, written out: a careful consumer after a process died reads one record a poll instead. */
    private static final int MAX_POLL_RECORDS = 500;

    private final IngestConfig config;
    private final AgroalDataSource dataSource;
    private final AgentKeyStore keys;
    private final IngestMetrics metrics;
    private final JobCommands jobs;
    private final ReadLedger ledger;
    private final DropLog drops = new DropLog(LOG::warn, System::nanoTime);
    private final ObjectMapper mapper = EventCodec.newMapper();
    private volatile Thread thread;
    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    /** The topic's end offsets when this consumer started, read by its first consumer; null until then. */
    private volatile Map<TopicPartition, Long> endsAtStart;

    private volatile boolean caughtUp;

    public HeartbeatConsumer(
            IngestConfig config,
            AgroalDataSource dataSource,
            AgentKeyStore keys,
            IngestMetrics metrics,
            JobCommands jobs,
            ReadLedger ledger) {
        this.config = config;
        this.dataSource = dataSource;
        this.keys = keys;
        this.metrics = metrics;
        this.jobs = jobs;
        this.ledger = ledger;
    }

    public synchronized void start() {
        if (thread != null && thread.isAlive()) {
            return;
        }
        running = true;
        endsAtStart = null;
        caughtUp = false;
        thread = new Thread(this::run, "podium-ingest-heartbeats");
        thread.setDaemon(true);
        thread.start();
    }

    public synchronized void stop() {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // After the thread ended, which may have found itself caught up meanwhile: a stopped consumer renews nothing.
        caughtUp = false;
    }

    /**
     * True once the group has read (committed) every heartbeat that was on the topic when this consumer started: from
     * then on, each lease whose run kept beating while ingest was down has been renewed. The reaper waits for it.
     */
    public boolean caughtUp() {
        return caughtUp;
    }

    public boolean isRunning() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    private void run() {
        GuardedPolls polls = new GuardedPolls(
                ledger,
                config.consumer().heartbeatGroupId(),
                MAX_POLL_RECORDS,
                config.consumer().pollBytes());
        while (running) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
            KafkaLogin.apply(config, p);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumer().heartbeatGroupId());
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-ingest-heartbeats");
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int)
                    config.consumer().sessionTimeout().toMillis());
            p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int)
                    Math.max(500, config.consumer().sessionTimeout().toMillis() / 4));
            try (KafkaConsumer<byte[], byte[]> c = polls.consumer(p)) {
                consumer = c;
                if (!running) {
                    return;
                }
                c.subscribe(List.of(config.topics().heartbeats()), new Assigned(c, polls));
                while (running && !polls.recreate(c)) {
                    if (skipWhereProcessesDied(c, polls)) {
                        continue;
                    }
                    ConsumerRecords<byte[], byte[]> polled;
                    try {
                        polled = polls.poll(c, config.consumer().pollTimeout());
                    } catch (RecordDeserializationException e) {
                        BoundedBytesDeserializer.refusal(e)
                                .ifPresent(why -> skip(c, e.topicPartition(), e.offset(), why));
                        continue;
                    }
                    if (!polled.isEmpty()) {
                        store(polled);
                        c.commitSync();
                    }
                    if (!caughtUp) {
                        caughtUp = readPastStart(c);
                    }
                }
            } catch (WakeupException e) {
                // stop() asked for it
            } catch (Exception e) {
                LOG.errorf(e, "heartbeat batch failed; reading again from the committed offsets");
                backoff();
            } finally {
                consumer = null;
            }
        }
    }

    /**
     * Whether the group's committed offsets (any instance's, for every partition) have reached the end offsets of the
     * topic as they were at start; a partition the group never committed counts from its first offset.
     */
    private boolean readPastStart(KafkaConsumer<byte[], byte[]> c) {
        if (endsAtStart == null) {
            endsAtStart =
                    Map.copyOf(c.endOffsets(c.partitionsFor(config.topics().heartbeats()).stream()
                            .map(p -> new TopicPartition(p.topic(), p.partition()))
                            .toList()));
        }
        Map<TopicPartition, OffsetAndMetadata> committed = c.committed(endsAtStart.keySet());
        Map<TopicPartition, Long> first = c.beginningOffsets(endsAtStart.keySet());
        for (Map.Entry<TopicPartition, Long> end : endsAtStart.entrySet()) {
            OffsetAndMetadata at = committed.get(end.getKey());
            if ((at == null ? first.get(end.getKey()) : at.offset()) < end.getValue()) {
                return false;
            }
        }
        LOG.infof(
                "heartbeats read up to where %s ended when this consumer started",
                config.topics().heartbeats());
        return true;
    }

    private void backoff() {
        try {
            Thread.sleep(config.consumer().retryBackoff().toMillis());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Drops the record a consumer is at where processes died reading it; true if there was one. */
    private boolean skipWhereProcessesDied(KafkaConsumer<byte[], byte[]> c, GuardedPolls polls) {
        Optional<GuardedPolls.DeadRecord> dead = polls.deadRecord(c);
        dead.ifPresent(d -> skip(c, d.partition(), d.offset(), "processes ended each time they read it"));
        return dead.isPresent();
    }

    /** A heartbeat that cannot be read is dropped like any bad one: counted, logged, and never read again. */
    private void skip(KafkaConsumer<byte[], byte[]> c, TopicPartition tp, long offset, String why) {
        drops.dropped("dropped heartbeat %s@%d: %s", tp, offset, why);
        metrics.heartbeat(false);
        c.commitSync(Map.of(tp, new OffsetAndMetadata(offset + 1)));
        c.seek(tp, offset + 1);
    }

    /**
     * Saves the read positions of partitions as they come (see {@link GuardedPolls#assigned}) and, before the poll
     * fetches, skips a record where processes died.
     */
    private final class Assigned implements ConsumerRebalanceListener {

        private final KafkaConsumer<byte[], byte[]> c;
        private final GuardedPolls polls;

        Assigned(KafkaConsumer<byte[], byte[]> c, GuardedPolls polls) {
            this.c = c;
            this.polls = polls;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            polls.assigned(c, partitions);
            while (skipWhereProcessesDied(c, polls)) {
                // one a partition
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            polls.revoked(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            polls.lost(partitions);
        }
    }

    void store(ConsumerRecords<byte[], byte[]> polled) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            Set<String> keyIds = new LinkedHashSet<>();
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                Verifier.keyId(r.headers()).ifPresent(keyIds::add);
            }
            Map<String, AgentKey> known = keys.lookup(c, keyIds);
            Map<String, Heartbeat.Last> last = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                Heartbeat hb = accept(r, known);
                if (hb != null && !hb.newerThan(last.computeIfAbsent(hb.agentId(), a -> lastStored(c, a)))) {
                    drops.dropped(
                            "dropped heartbeat %s/%d@%d of agent %s: a replay (boot %s, seq %s, sent at %s is not newer"
                                    + " than the last one stored)",
                            r.topic(), r.partition(), r.offset(), hb.agentId(), hb.bootId(), hb.seq(), hb.sentAt());
                    hb = null;
                }
                if (hb != null) {
                    last.put(hb.agentId(), new Heartbeat.Last(hb.bootId(), hb.seq(), hb.sentAt()));
                    upsert(c, hb);
                    if (hb.currentJobId() != null && hb.currentRunId() != null && hb.leaseEpoch() != null) {
                        jobs.renewLease(c, hb.agentId(), hb.currentJobId(), hb.currentRunId(), hb.leaseEpoch());
                    }
                }
                metrics.heartbeat(hb != null);
            }
            c.commit();
        }
    }

    private static Heartbeat.Last lastStored(Connection c, String agentId) {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT boot_id, heartbeat_seq, heartbeat_sent_at FROM agent_status WHERE agent_id = ?")) {
            ps.setString(1, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long seq = rs.getLong(2);
                Timestamp sent = rs.getTimestamp(3);
                return new Heartbeat.Last(
                        rs.getObject(1, UUID.class), rs.wasNull() ? null : seq, sent == null ? null : sent.toInstant());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read agent_status of " + agentId, e);
        }
    }

    /** The heartbeat, or null (logged) when it must be dropped. */
    private Heartbeat accept(ConsumerRecord<byte[], byte[]> r, Map<String, AgentKey> known) {
        String where = r.topic() + "/" + r.partition() + "@" + r.offset();
        String keyId = Verifier.keyId(r.headers()).orElse(null);
        Header sig = r.headers().lastHeader(EventSigner.SIGNATURE_HEADER);
        AgentKey key = keyId == null ? null : known.get(keyId);
        if (key == null || sig == null || sig.value() == null) {
            drops.dropped("dropped heartbeat %s: unsigned or unknown key", where);
            return null;
        }
        if (!key.verifiesAt(Verifier.appendedAt(r))
                || r.value() == null
                || r.value().length > Heartbeat.MAX_BYTES
                || !EventSigner.verifyHeartbeat(
                        r.value(), new String(sig.value(), StandardCharsets.UTF_8), key.secret())) {
            drops.dropped("dropped heartbeat %s: key %s revoked or signature does not match", where, keyId);
            return null;
        }
        Heartbeat hb;
        try {
            hb = mapper.readValue(r.value(), Heartbeat.class);
        } catch (Exception e) {
            drops.dropped(
                    "dropped heartbeat %s: not a heartbeat (%s)",
                    where, e.getClass().getSimpleName());
            return null;
        }
        String problem = hb == null ? "empty" : hb.problem();
        if (problem == null && !hb.agentId().equals(key.agentId())) {
            problem = "agent_id is not the agent of key " + keyId;
        }
        if (problem != null) {
            drops.dropped("dropped heartbeat %s: %s", where, problem);
            return null;
        }
        return hb;
    }

    private void upsert(Connection c, Heartbeat hb) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO agent_status (agent_id, boot_id, pool, state, current_job_id, current_run_id, lease_epoch,
                                          device_id, hostname, sensors, last_heartbeat_at, heartbeat_seq, heartbeat_sent_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, clock_timestamp(), ?, ?)
                ON CONFLICT (agent_id) DO UPDATE SET boot_id = excluded.boot_id, pool = excluded.pool,
                    state = excluded.state, current_job_id = excluded.current_job_id,
                    current_run_id = excluded.current_run_id, lease_epoch = excluded.lease_epoch,
                    device_id = excluded.device_id, hostname = excluded.hostname, sensors = excluded.sensors,
                    last_heartbeat_at = excluded.last_heartbeat_at, heartbeat_seq = excluded.heartbeat_seq,
                    heartbeat_sent_at = excluded.heartbeat_sent_at""")) {
            ps.setString(1, hb.agentId());
            ps.setObject(2, hb.bootId(), Types.OTHER);
            ps.setString(3, hb.pool());
            ps.setString(4, hb.state());
            ps.setObject(5, hb.currentJobId(), Types.OTHER);
            ps.setObject(6, hb.currentRunId(), Types.OTHER);
            if (hb.leaseEpoch() == null) {
                ps.setNull(7, Types.INTEGER);
            } else {
                ps.setInt(7, hb.leaseEpoch());
            }
            ps.setString(8, hb.deviceId());
            ps.setString(9, hb.hostname());
            ps.setString(10, hb.sensors() == null ? null : mapper.writeValueAsString(hb.sensors()));
            ps.setObject(11, hb.seq(), Types.BIGINT);
            ps.setTimestamp(12, hb.sentAt() == null ? null : Timestamp.from(hb.sentAt()));
            ps.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sensors always encode", e);
        }
    }
}
