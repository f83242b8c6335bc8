package dev.podium.query.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ComparisonKey;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KeysTest {

    private static final ObjectMapper JSON = EventCodec.newMapper();
    private static final ComparisonKey KEY = new ComparisonKey(
            "bridgetower",
            "1.0",
            "fine-tuning",
            "m",
            "bf16",
            16,
            8,
            null,
            new TreeMap<>(Map.of("dataloader_num_workers", "2", "mediapipe_dataloader", "true")));

    @Test
    void aKeyStoredAsItsDimensionMapReadsBackToTheSameKey() throws Exception {
        ComparisonKey parsed = Keys.parse("bridgetower", JSON.readTree(JSON.writeValueAsString(KEY.dimensions())));

        assertThat(parsed).isEqualTo(KEY);
        assertThat(parsed.id()).isEqualTo(KEY.id());
    }

    @Test
    void aKeyStoredAsTheRecordReadsBackToTheSameKey() throws Exception {
        ComparisonKey parsed = Keys.parse("bridgetower", JSON.readTree(JSON.writeValueAsString(KEY)));

        assertThat(parsed.id()).isEqualTo(KEY.id());
    }

    @Test
    void aNumberThatIsNotANumberIsNotStated() throws Exception {
        ComparisonKey parsed =
                Keys.parse("b", JSON.readTree("{\"benchmark\":\"b\",\"per_device_batch_size\":\"<script>\"}"));

        assertThat(parsed.perDeviceBatchSize()).isNull();
        assertThat(parsed.benchmark()).isEqualTo("b");
    }
}
