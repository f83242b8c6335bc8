package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.codec.EventCodec;
import dev.podium.events.testing.SampleEvents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSpecTest {

    /** A campaign's job names no parser: the agent's own workloads print JSON lines, a command is parsed automatically. */
    @Test
    void aJobThatNamesNoParserIsReadWithItsAdaptersDefault() {
        assertThat(SampleEvents.jobSpec().parser()).isNull();
        assertThat(SampleEvents.jobSpec().parserOrDefault()).isEqualTo("jsonl");
        assertThat(spec(JobSpec.COMMAND_ADAPTER, null).parserOrDefault()).isEqualTo("auto");
        assertThat(spec(" command ", null).parserOrDefault()).isEqualTo("auto");
        assertThat(spec(JobSpec.COMMAND_ADAPTER, " hf-trainer ").parserOrDefault())
                .isEqualTo("hf-trainer");
    }

    /** The default is the reader's, not the contract's: a spec's JSON stays what it was. */
    @Test
    void theDefaultIsNotWrittenIntoTheSpecsJson() {
        String json =
                new EventCodec().mapper().valueToTree(SampleEvents.jobSpec()).toString();
        assertThat(json).contains("\"adapter\":\"reference\"").doesNotContain("parser");
    }

    private static JobSpec spec(String adapter, String parser) {
        return new JobSpec("b", adapter, List.of("true"), parser, Map.of(), Map.of(), 3, 0, 60, Map.of(), 1, 1, null);
    }
}
