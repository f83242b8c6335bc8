package dev.podium.ingest.dlq;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.consumer.BatchProcessor;
import dev.podium.ingest.store.RejectedRows;
import dev.podium.ingest.store.RejectedRows.Redrivable;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * Feeds refused records back into ingestion once ingest can take them (it learnt a schema version, a fix landed): each
 * record, with its bytes and signature headers as received and its original coordinates, goes through the same check
 * and transaction as a polled batch of one. So a record that is valid now is stored once (a second redrive finds it
 * stored: a duplicate), one that is not is refused again with today's reason, and since rejected_event keeps one row per
 * source offset, no refusal is ever counted twice. Nothing is produced to the DLQ again: the record is already there.
 */
@ApplicationScoped
public class Redriver {

    /** What a redrive of one rejected_event row did. */
    public enum Outcome {
        /** Stored now, projections applied. */
        STORED,
        /** Its event was already stored (redriven before, or delivered again meanwhile). */
        DUPLICATE,
        /** Refused again; the reason says why. */
        REJECTED,
        /** Only a prefix of the record was kept, or none: nothing to feed back. */
        NOT_REDRIVABLE,
        /** No rejected_event row with that id. */
        UNKNOWN;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /** The outcome for one row; {@code reason} for a refusal again or a record that cannot be redriven. */
    public record Redriven(long id, Outcome outcome, String reason) {}

    private final AgroalDataSource dataSource;
    private final RejectedRows rows;
    private final BatchProcessor processor;

    public Redriver(AgroalDataSource dataSource, RejectedRows rows, BatchProcessor processor) {
        this.dataSource = dataSource;
        this.rows = rows;
        this.processor = processor;
    }

    /** Redrives one row, in a transaction of its own (the batch's), and records what happened on the row. */
    public Redriven redrive(long id) throws SQLException {
        Optional<Redrivable> row;
        try (Connection c = dataSource.getConnection()) {
            row = rows.forRedrive(c, id);
        }
        if (row.isEmpty()) {
            return new Redriven(id, Outcome.UNKNOWN, null);
        }
        Redrivable r = row.get();
        if (!r.complete()) {
            return new Redriven(
                    id,
                    Outcome.NOT_REDRIVABLE,
                    "only " + (r.record() == null ? 0 : r.record().length) + " of its " + r.recordBytes()
                            + " bytes were kept");
        }
        BatchProcessor.Result result;
        try {
            result = processor.process(processor.check(List.of(asPolled(r))));
        } catch (SQLException e) {
            if (!BatchProcessor.isDataError(e)) {
                throw e;
            }
            result = processor.refuse(asPolled(r), "invalid: cannot be stored (SQLSTATE " + e.getSQLState() + ")");
        }
        Redriven out;
        if (result.accepted() == 1) {
            out = new Redriven(id, Outcome.STORED, null);
        } else if (result.duplicates() == 1) {
            out = new Redriven(id, Outcome.DUPLICATE, null);
        } else {
            out = new Redriven(
                    id,
                    Outcome.REJECTED,
                    result.deadLetters().isEmpty()
                            ? null
                            : result.deadLetters().get(0).reason());
        }
        try (Connection c = dataSource.getConnection()) {
            rows.redriven(c, id, out.outcome().label(), out.reason());
        }
        return out;
    }

    /** The record as the consumer polled it: same coordinates, bytes and signature headers. */
    private static ConsumerRecord<byte[], byte[]> asPolled(Redrivable r) {
        RecordHeaders headers = new RecordHeaders();
        if (r.keyId() != null) {
            headers.add(EventSigner.KEY_ID_HEADER, r.keyId().getBytes(StandardCharsets.UTF_8));
        }
        if (r.signature() != null) {
            headers.add(EventSigner.SIGNATURE_HEADER, r.signature().getBytes(StandardCharsets.UTF_8));
        }
        return new ConsumerRecord<>(
                r.topic(),
                r.partition(),
                r.offset(),
                ConsumerRecord.NO_TIMESTAMP,
                TimestampType.NO_TIMESTAMP_TYPE,
                ConsumerRecord.NULL_SIZE,
                r.record().length,
                null,
                r.record(),
                headers,
                Optional.empty());
    }
}
