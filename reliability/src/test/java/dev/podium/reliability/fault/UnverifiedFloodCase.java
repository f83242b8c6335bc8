package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.run.RunProgress;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.Limits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A flood of records that no enrolled agent signed, each just under the record limit once decompressed and a few KB of
 * gzip on the wire (one 4 KiB block repeated): half with no key at all, half naming a key id nobody issued. Each refusal
 * may keep at most {@value #KEPT_BYTES} bytes (a prefix, beside the size and a hash), a control run sent behind the flood
 * must be visible within max(2 s, 3x its quiet time), and ingest must stay ready.
 */
final class UnverifiedFloodCase {

    static final int KEPT_BYTES = 64 * 1024;
    /** Under the limit: what ingest must refuse them for is the missing signature, and it must read them to know. */
    private static final int MESSAGE_CHARS = Limits.MAX_RECORD_BYTES - 4096;

    private static final int BLOCK_CHARS = 4096;
    private static final int MOST_CONTROL_RUNS = 5;
    private static final EventCodec CODEC = new EventCodec();

    private final Platform p;
    private final FaultCases cases;
    private final int records;
    private final String unknownKey =
            "pk_nobody_" + UUID.randomUUID().toString().substring(0, 8);
    private final String message = block().repeat(MESSAGE_CHARS / BLOCK_CHARS);

    /** 300 records in the ci tier (the flood), ten times that in the full one. */
    UnverifiedFloodCase(Platform p, FaultCases cases, String tier) {
        this.p = p;
        this.cases = cases;
        this.records = tier.equals("full") ? 3000 : 300;
    }

    CaseResult run(Map<String, String> figures) {
        VolumeCheck check = new VolumeCheck();
        long t0 = System.nanoTime();
        try (ControlRuns controls = new ControlRuns(p, cases.agent("flood-control"))) {
            Map<String, String> expectedRejects = new HashMap<>();
            try (ReadinessWatch ready = new ReadinessWatch(p.ingest)) {
                double quiet = controls.quiet();
                List<RecordMetadata> sent = p.produce(records, this::record);
                for (int i = 0; i < sent.size(); i++) {
                    expectedRejects.put(
                            FaultCases.where(sent.get(i)),
                            i % 2 == 0 ? "unsigned: " : "forged: unknown key " + unknownKey);
                }
                var end = p.eventsEnd();
                check.controlRuns(quiet, controls.during(() -> !p.ingested(end), MOST_CONTROL_RUNS));
                check.awaitIngested(p, "the flood");
                check.readiness(ready);
            }
            kept(check, expectedRejects);
            CaseResult r = check.result(
                    cases,
                    "unverified-flood",
                    fault(),
                    controls,
                    expectedRejects,
                    records + controls.ids().size(),
                    t0);
            figures.put(r.name(), check.figures());
            return r;
        }
    }

    /** Every refusal's kept copy, by the bytes of {@code rejected_event.record}. */
    private void kept(VolumeCheck check, Map<String, String> refusals) {
        List<Object> row = p.store
                .rows(
                        "SELECT count(*), coalesce(max(octet_length(record)), 0), coalesce(sum(octet_length(record)), 0)"
                                + " FROM rejected_event WHERE topic = 'podium.events'"
                                + " AND kafka_partition || '@' || kafka_offset = ANY (?)",
                        (Object) refusals.keySet().toArray(String[]::new))
                .get(0);
        long rows = ((Number) row.get(0)).longValue();
        long largest = ((Number) row.get(1)).longValue();
        long total = ((Number) row.get(2)).longValue();
        check.figure(String.format(
                "%d refusals kept %,d bytes at most (%.1f MiB in all)", rows, largest, total / 1048576.0));
        if (largest > KEPT_BYTES) {
            check.problem(
                    String.format("a refusal of an unverified record kept %,d bytes, over %,d", largest, KEPT_BYTES));
        }
    }

    private String fault() {
        return String.format(
                "%d unverified records of %,d bytes (%,d of gzip on the wire), half with no key, half of an unknown key",
                records, value(0).length, gzip(value(0)).length);
    }

    private ProducerRecord<byte[], byte[]> record(int i) {
        byte[] value = value(i);
        return i % 2 == 0
                ? Credentials.record(null, value, null, null)
                : Credentials.record(
                        null,
                        value,
                        unknownKey,
                        EventSigner.sign(value, EventSigner.secretBytes(EventSigner.newSecret())));
    }

    /** A well-formed RunProgress whose message fills the record. */
    private byte[] value(int i) {
        UUID run = SampleEvents.uuid("flood/" + unknownKey + "/" + i);
        Envelope e = SampleEvents.envelope(
                StreamId.run(run), 2, "flood", SampleEvents.AT, new RunProgress(run, 1, 2, 10, "measure", message));
        return CODEC.encode(e);
    }

    /** Letters and digits a gzip window holds whole, so that the repeated block costs a few bytes each time. */
    private static String block() {
        Random random = new Random(37);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        StringBuilder sb = new StringBuilder(BLOCK_CHARS);
        for (int i = 0; i < BLOCK_CHARS; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static byte[] gzip(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
