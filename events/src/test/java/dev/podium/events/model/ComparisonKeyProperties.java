package dev.podium.events.model;

import static dev.podium.events.model.ComparisonKeyTest.extra;
import static dev.podium.events.model.ComparisonKeyTest.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The canonical text is injective: different keys never share it, whatever their values hold (seeded inputs). */
class ComparisonKeyProperties {

    private static final String ALPHABET = "a=;%-_ x\u00e9\u0000/";

    @Test
    void differentScenariosGiveDifferentCanonicalTexts() {
        Random random = new Random(7);
        for (int i = 0; i < 2000; i++) {
            String a = text(random);
            String b = text(random);
            if (!a.equals(b)) {
                assertThat(key(a, extra()).canonical())
                        .isNotEqualTo(key(b, extra()).canonical());
            }
        }
    }

    @Test
    void differentExtrasGiveDifferentCanonicalTexts() {
        Random random = new Random(11);
        for (int i = 0; i < 2000; i++) {
            String k1 = text(random);
            String k2 = text(random);
            if (ComparisonKey.FIXED_DIMENSIONS.contains(k1) || ComparisonKey.FIXED_DIMENSIONS.contains(k2)) {
                continue;
            }
            TreeMap<String, String> one = extra(k1, text(random));
            TreeMap<String, String> two = extra(k2, text(random));
            if (!one.equals(two)) {
                assertThat(key(null, one).canonical())
                        .isNotEqualTo(key(null, two).canonical());
            }
        }
    }

    /** Short strings over an alphabet rich in separators and escapes, where collisions would hide. */
    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
