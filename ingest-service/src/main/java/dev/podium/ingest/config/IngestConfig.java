package dev.podium.ingest.config;

import dev.podium.ingest.consumer.CrashPoint;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** ingest-service's settings, under {@code podium.ingest}. */
@ConfigMapping(prefix = "podium.ingest")
public interface IngestConfig {

    /** Kafka bootstrap servers. */
    @WithDefault("localhost:9092")
    String bootstrapServers();

    /** SCRAM-SHA-512 user for a broker that requires SASL; unset: no login (see {@link KafkaLogin}). */
    Optional<String> kafkaUsername();

    Optional<String> kafkaPassword();

    /** AES-256 key (base64 of 32 bytes) that encrypts agent key secrets at rest. Required outside dev and test. */
    String masterKey();

    Topics topics();

    Consumer consumer();

    Jobs jobs();

    Fault fault();

    /** Fault injection for the reliability suite; unset in production (see HaltingCrashPoint). */
    interface Fault {

        /** The stage of a batch where the process halts; unset: never. */
        Optional<CrashPoint.Stage> haltAt();

        /** Which batch to reach {@link #haltAt()} halts the process: 1 is the first. */
        @WithDefault("1")
        int haltAfterBatches();
    }

    Keys keys();

    AgentIdentities agentIdentities();

    /**
     * A Kafka identity per agent key (SCRAM user named by the key id, its ACLs and produce quota), provisioned at issue,
     * removed at revocation and reconciled with the keys on an interval. Needs a broker with SASL/SCRAM and the
     * StandardAuthorizer, and ingest's Kafka login with cluster rights (docs/SECURITY.md).
     */
    interface AgentIdentities {

        @WithDefault("false")
        boolean enabled();

        /** How often the broker's agent identities are made to match the keys that verify records. */
        @WithDefault("30s")
        Duration reconcileInterval();

        /** Each agent identity's produce quota, bytes a second (the broker's {@code producer_byte_rate}). */
        @WithDefault("1048576")
        long producerByteRate();

        /** How long one provisioning call waits for the broker: an issue or revoke waits at most this for Kafka. */
        @WithDefault("10s")
        Duration brokerTimeout();
    }

    Workloads workloads();

    /**
     * What each pool's jobs may run (see {@link dev.podium.events.model.WorkloadAllowlist}): {@code adapters} and
     * {@code commands} for every pool, {@code pools."<pool>".adapters} and {@code .commands} in place of them for one
     * pool. A campaign one of its pools does not allow is refused, naming the pool, before any job is signed; agents hold
     * lists of their own.
     */
    interface Workloads {

        @WithDefault("reference,inference,mamf")
        List<String> adapters();

        /** Executables a command job may start: a directory ending in '/', or argv[0] exactly; none: no command jobs. */
        Optional<List<String>> commands();

        Map<String, Pool> pools();

        interface Pool {

            Optional<List<String>> adapters();

            Optional<List<String>> commands();
        }
    }

    Rejected rejected();

    Budget budget();

    /**
     * What one run and one agent may make ingest store and project (see docs/SECURITY.md, "Bounded work"). A verified
     * record past a bound is held: kept whole in {@code rejected_event}, to be redriven once the bound is raised.
     */
    interface Budget {

        /** Events of one run stream: its seq may not pass this. */
        @WithDefault("100000")
        long runEvents();

        /** Samples of one series kind of one run, across its MetricSampled events. */
        @WithDefault("1000000")
        long runSamplesPerSeries();

        /** Benchmarks an agent may add to the catalogue (names no run or claim used before). */
        @WithDefault("100")
        int agentNewBenchmarks();

        /** Comparison keys an agent may add to the catalogue. */
        @WithDefault("2000")
        int agentNewKeys();

        /** Device ids an agent may add to the catalogue. */
        @WithDefault("16")
        int agentNewDevices();
    }

    /**
     * How long, and how much, of the refused records {@code rejected_event} keeps: its oldest rows go first, their
     * counts stay in {@code rejected_count}. A row is redriven only while it is kept.
     */
    interface Rejected {

        @WithDefault("30d")
        Duration maxAge();

        /** The bytes of kept copies across all rows but the held ones. */
        @WithDefault("1073741824")
        long maxBytes();

        /**
         * The bytes of held records (verified, over a budget or quota, kept whole until redriven) kept per agent key;
         * past it that key's oldest held rows go. Held rows are not aged out, and other refusals never push them out.
         */
        @WithDefault("268435456")
        long heldMaxBytesPerKey();

        @WithDefault("10m")
        Duration retentionInterval();
    }

    interface Keys {

        /**
         * How long a key retired by a rotation still verifies records, judged by the broker's log-append time (or, on a
         * topic with writer-set timestamps, when ingest read the record); after it the key verifies nothing.
         */
        @WithDefault("24h")
        Duration retiringGrace();
    }

    /** The command side of fleet benchmarking: leases, the reaper, the campaign schedule and the outbox relay. */
    interface Jobs {

        /** How long a grant, and each heartbeat that renews it, keeps the lease. */
        @WithDefault("60s")
        Duration leaseDuration();

        /**
         * The most jobs one agent may hold at once (assigned to it): a claim past it is refused and its job stays
         * offered. Above the slots an agent daemon runs by default (1), so only an agent that claims more than it
         * runs meets it.
         */
        @WithDefault("4")
        int maxGrantsPerAgent();

        /** How often the reaper looks for expired leases. */
        @WithDefault("5s")
        Duration reaperInterval();

        /** How often scheduled campaigns are checked for being due. */
        @WithDefault("30s")
        Duration scheduleInterval();

        /** How often the outbox relay looks for unsent rows. */
        @WithDefault("200ms")
        Duration relayInterval();

        /** Start the relay, the reaper and the schedule at start. */
        @WithDefault("true")
        boolean enabled();
    }

    interface Topics {

        @WithDefault("podium.events")
        String events();

        @WithDefault("podium.events.dlq")
        String dlq();

        @WithDefault("podium.heartbeats")
        String heartbeats();

        @WithDefault("podium.jobs")
        String jobs();

        /** Create the topics at start when they are missing. */
        @WithDefault("true")
        boolean create();

        @WithDefault("12")
        int eventsPartitions();

        @WithDefault("1")
        short replicationFactor();
    }

    interface Consumer {

        /** Start the event and heartbeat consumers at start. */
        @WithDefault("true")
        boolean enabled();

        @WithDefault("podium-ingest")
        String groupId();

        @WithDefault("podium-ingest-heartbeats")
        String heartbeatGroupId();

        @WithDefault("500")
        int maxPollRecords();

        @WithDefault("500ms")
        Duration pollTimeout();

        /**
         * The bytes of record values one poll may take after decompression (see PollBudget). A batch is one poll and
         * its top-up, and the next batch is polled while one is written, so about four times this is held at once,
         * whatever the records hold.
         */
        @WithDefault("8388608")
        long pollBytes();

        /**
         * After a poll that returned fewer than {@link #maxPollRecords()} records, how long a second poll may wait for
         * what arrived while the previous batch was written (see EventConsumer); 0: no second poll.
         */
        @WithDefault("5ms")
        Duration topUp();

        /**
         * How long the broker waits for a silent consumer before it gives its partitions to the others: after a crash (a
         * SIGKILL leaves no goodbye), a restarted instance reads again only once this has passed.
         */
        @WithDefault("10s")
        Duration sessionTimeout();

        /** Wait before a failed batch is read again from the last committed offsets. */
        @WithDefault("2s")
        Duration retryBackoff();

        /** Readiness reports DOWN when records wait and the event consumer has written nothing for this long. */
        @WithDefault("60s")
        Duration stallTimeout();

        /** Timeout of the broker check behind readiness. */
        @WithDefault("2s")
        Duration healthTimeout();
    }
}
