package dev.podium.bench;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The benchmark's events: result runs as an agent writes them, RunStarted (seq 1) then RunCompleted (seq 2) with ten
 * per-repetition throughputs, each about 1 KB of JSON, signed. Runs are spread over {@code keys} comparison keys and five
 * devices, so a 500-event batch touches many leaderboard rows, as a busy fleet does. Deterministic per (prefix, index).
 */
public final class ResultEvents {

    public static final String AGENT_ID = "bench-agent";
    private static final String[] DEVICES = {
        "nvidia-h100-sxm-80gb", "nvidia-h100-pcie-80gb", "intel-gaudi2", "nvidia-a100-sxm-80gb", "amd-mi300x"
    };

    /** One signed record: the exact value bytes, its Kafka key (the stream id) and the signature header. */
    public record Signed(Envelope envelope, String streamId, byte[] value, String signature) {}

    private final EventCodec codec = new EventCodec();
    private final String prefix;
    private final int keys;
    private final byte[] secret;

    public ResultEvents(String prefix, int keys, byte[] secret) {
        this.prefix = prefix;
        this.keys = keys;
        this.secret = secret;
    }

    public static ComparisonKey key(int k) {
        SortedMap<String, String> extra = new TreeMap<>();
        extra.put("dataloader_num_workers", Integer.toString(k % 8));
        extra.put("variant", "v" + (k / 8));
        return new ComparisonKey("bench-finetune", "1", "offline", "bench/model-" + (k % 4), "bf16", 32, 8, 224, extra);
    }

    /** The two events of run {@code run}: RunStarted and RunCompleted. */
    public List<Envelope> run(long run) {
        UUID runId = SampleEvents.uuid(prefix + "-run-" + run);
        String device = DEVICES[(int) (run / keys % DEVICES.length)];
        ComparisonKey key = key((int) (run % keys));
        Instant at = SampleEvents.AT.plusSeconds(run);
        List<Double> values = new ArrayList<>(10);
        for (int i = 0; i < 10; i++) {
            values.add(500.0 + (run * 7 + i * 13) % 97 + i / 10.0);
        }
        Envelope started = SampleEvents.runStarted(runId, AGENT_ID, device, key, at);
        Envelope completed = SampleEvents.runCompleted(runId, AGENT_ID, 2, values);
        return List.of(started, completed);
    }

    /** Events {@code 2*run} and {@code 2*run+1}, signed. */
    public List<Signed> signedRun(long run) {
        List<Signed> out = new ArrayList<>(2);
        for (Envelope e : run(run)) {
            byte[] value = codec.encode(e);
            out.add(new Signed(e, e.streamId(), value, EventSigner.sign(value, secret)));
        }
        return out;
    }

    public EventCodec codec() {
        return codec;
    }
}
