package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.events.testing.SampleEvents;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ComparisonKeyTest {

    static TreeMap<String, String> extra(String... kv) {
        TreeMap<String, String> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static ComparisonKey key(String scenario, TreeMap<String, String> extra) {
        return new ComparisonKey("bench", null, scenario, null, null, null, null, null, extra);
    }

    @Test
    void canonicalTextIsStable() {
        assertThat(SampleEvents.bridgeTowerKey(0, "default").canonical())
                .isEqualTo("benchmark=bridgetower-finetune;benchmark_version=-;scenario=-;"
                        + "model=BridgeTower/bridgetower-large-itm-mlm-itc;precision=-;per_device_batch_size=-;"
                        + "total_accelerators=8;input_size=-;dataloader=default;dataloader_num_workers=0");
    }

    @Test
    void idIsStableAndShort() {
        ComparisonKey k = SampleEvents.bridgeTowerKey(0, "default");
        assertThat(k.id()).isEqualTo(ComparisonKey.shortHash(k.canonical())).matches("[0-9a-f]{16}");
        // Pinned: ids are stored in projections and URLs, so this value must never change.
        assertThat(k.id()).isEqualTo(PINNED_BRIDGETOWER_ID);
        assertThat(SampleEvents.bridgeTowerKey(1, "default").id()).isNotEqualTo(k.id());
    }

    static final String PINNED_BRIDGETOWER_ID = "eb39a06bf81180c7";

    @Test
    void extraParametersAreOrderedByName() {
        TreeMap<String, String> reversed = new TreeMap<>(java.util.Comparator.reverseOrder());
        reversed.put("a", "1");
        reversed.put("b", "2");
        assertThat(key(null, reversed).canonical())
                .endsWith(";a=1;b=2")
                .isEqualTo(key(null, extra("b", "2", "a", "1")).canonical());
    }

    @Test
    void separatorsInValuesCannotImitateAnotherKey() {
        ComparisonKey smuggled = key("x;model=evil", extra());
        ComparisonKey honest = new ComparisonKey("bench", null, "x", "evil", null, null, null, null, extra());
        assertThat(smuggled.canonical()).contains("scenario=x%3Bmodel%3Devil");
        assertThat(smuggled.canonical()).isNotEqualTo(honest.canonical());
        assertThat(smuggled.id()).isNotEqualTo(honest.id());

        assertThat(key(null, extra("a", "1;b=2")).canonical())
                .isNotEqualTo(key(null, extra("a", "1", "b", "2")).canonical());
        assertThat(key(null, extra("a=1", "x")).canonical()).endsWith(";a%3D1=x");
        assertThat(key("%3B", extra()).canonical()).contains("scenario=%253B");
    }

    @Test
    void aValueOfDashIsNotAnAbsentValue() {
        assertThat(key("-", extra()).canonical())
                .isNotEqualTo(key(null, extra()).canonical());
        assertThat(key("-", extra()).id()).isNotEqualTo(key(null, extra()).id());
    }

    @Test
    void extraParameterCannotShadowAFixedDimension() {
        assertThatThrownBy(() -> key(null, extra("model", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'model'");
    }

    @Test
    void withoutDimensionGroupsKeysThatDifferOnlyThere() {
        ComparisonKey w0 = SampleEvents.bridgeTowerKey(0, "default");
        ComparisonKey w2 = SampleEvents.bridgeTowerKey(2, "default");
        ComparisonKey mediapipe = SampleEvents.bridgeTowerKey(2, "mediapipe");

        assertThat(w0.withoutDimension("dataloader_num_workers"))
                .isEqualTo(w2.withoutDimension("dataloader_num_workers"));
        assertThat(w0.canonicalWithout("dataloader_num_workers"))
                .isEqualTo(w2.canonicalWithout("dataloader_num_workers"))
                .doesNotContain("dataloader_num_workers");
        assertThat(w2.canonicalWithout("dataloader_num_workers"))
                .isNotEqualTo(mediapipe.canonicalWithout("dataloader_num_workers"));
        assertThat(w0.withoutDimension(ComparisonKey.MODEL).model()).isNull();
        assertThat(w0.withoutDimension(ComparisonKey.TOTAL_ACCELERATORS).totalAccelerators())
                .isNull();
        assertThat(w0.withoutDimension(ComparisonKey.TOTAL_ACCELERATORS).extra())
                .isEqualTo(w0.extra());
        assertThat(w0.withoutDimension("no_such_dimension")).isEqualTo(w0);
    }

    @Test
    void valueOfNamesEveryDimension() {
        ComparisonKey k = SampleEvents.referenceKey(1);
        assertThat(k.valueOf(ComparisonKey.BATCH_SIZE)).isEqualTo("32");
        assertThat(k.valueOf("dataloader_num_workers")).isEqualTo("1");
        assertThat(k.valueOf(ComparisonKey.BENCHMARK)).isEqualTo(SampleEvents.REFERENCE_BENCHMARK);
        assertThat(k.dimensions().keySet()).startsWith(ComparisonKey.FIXED_DIMENSIONS.toArray(String[]::new));
    }

    @Test
    void valueOfAgreesWithTheDimensionMapForEveryNameAndIsNullForOthers() {
        ComparisonKey stated = SampleEvents.referenceKey(1);
        ComparisonKey sparse = new ComparisonKey("b", null, null, null, null, null, null, null, null);
        for (ComparisonKey k : java.util.List.of(stated, sparse)) {
            k.dimensions()
                    .forEach((name, value) ->
                            assertThat(k.valueOf(name)).as(name).isEqualTo(value));
            assertThat(k.valueOf("not_a_dimension")).isNull();
            assertThat(k.valueOf(null)).isNull();
        }
    }

    @Test
    void nullExtraEqualsEmptyExtra() {
        assertThat(key(null, null)).isEqualTo(key(null, extra()));
    }

    @Test
    void labelReadsAsWordsAndNeverAsTheCanonicalText() {
        assertThat(SampleEvents.bridgeTowerKey(2, "mediapipe").label())
                .isEqualTo("bridgetower-large-itm-mlm-itc \u00b7 8 accelerators \u00b7 mediapipe \u00b7 workers 2");
        assertThat(new ComparisonKey("b", "2", "offline", "m", "bf16", 32, 1, 224, extra("max_new_tokens", "128"))
                        .label())
                .isEqualTo(
                        "m \u00b7 version 2 \u00b7 offline \u00b7 bf16 \u00b7 batch 32 \u00b7 1 accelerator \u00b7 input 224"
                                + " \u00b7 max new tokens 128");
        assertThat(key(null, extra()).label())
                .as("a key that states nothing is its benchmark")
                .isEqualTo("bench");
    }
}
