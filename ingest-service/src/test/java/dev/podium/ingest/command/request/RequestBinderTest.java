package dev.podium.ingest.command.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** How an admin body becomes a record: strictly, with every problem named by its field and no value repeated. */
class RequestBinderTest {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private static final RequestBinder BINDER = new RequestBinder(VALIDATION.getValidator());
    private static final MediaType YAML = MediaType.valueOf("application/yaml");

    @AfterAll
    static void close() {
        VALIDATION.close();
    }

    @Test
    void unknownFieldsAndWrongShapesAreAllNamedAndTheRestIsStillChecked() {
        List<FieldViolation> all = violations(MediaType.APPLICATION_JSON_TYPE, """
                {"name": "", "pools": "gpu-a", "colour": "red", "spec": {"benchmark": "b", "adapter": "reference",
                 "repetitions": 1, "warmup_steps": 0, "timeout_seconds": 60, "nodes": 1, "devices_per_node": 1,
                 "repetitons": 3, "command": {"a": 1}}, "schedule": "sometimes"}""");
        assertThat(all)
                .containsExactly(
                        new FieldViolation("colour", "unknown field"),
                        new FieldViolation("name", "must not be blank"),
                        new FieldViolation("pools", "must be a list"),
                        new FieldViolation(
                                "schedule",
                                "must be hourly, nightly, daily, weekly or an ISO-8601 duration of a second "
                                        + "or more, such as PT24H"),
                        new FieldViolation("spec.command", "must be a list"),
                        new FieldViolation("spec.repetitons", "unknown field"));
    }

    @Test
    void anUnknownFieldIsNamedWhereverItIsAndWhateverItHolds() {
        assertThat(violations(YAML, """
                name: n
                pools: [p]
                a0: [x, [y]]
                spec: {benchmark: b, adapter: reference, extra: {deep: [1]}, more: [1, 2]}
                a1: {b: c}
                """))
                .extracting(FieldViolation::field)
                .containsExactly(
                        "a0",
                        "a1",
                        "spec.devices_per_node",
                        "spec.extra",
                        "spec.more",
                        "spec.nodes",
                        "spec.repetitions",
                        "spec.timeout_seconds",
                        "spec.warmup_steps");
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "{\"ids\": [1], \"all\": [true]}", RedriveRequest.class))
                .containsExactly(new FieldViolation("all", "unknown field"));
        assertThat(violations(
                        MediaType.APPLICATION_JSON_TYPE, "{\"all\": {\"x\": 1}, \"ids\": [1]}", RedriveRequest.class))
                .containsExactly(new FieldViolation("all", "unknown field"));
    }

    @Test
    void aMissingNumberIsRequiredAndTheOtherProblemsAreStillListed() {
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, """
                {"name": "n", "pools": ["bad pool"], "schedule": "sometimes",
                 "spec": {"benchmark": "b", "adapter": "reference", "repetitions": null, "warmup_steps": 0,
                          "timeout_seconds": 99999999999, "nodes": 1, "devices_per_node": 1}}"""))
                .containsExactly(
                        new FieldViolation(
                                "pools[0]",
                                "must be a letter or digit, then letters, digits, '.', '_' or '-'; "
                                        + "64 characters at most"),
                        new FieldViolation(
                                "schedule",
                                "must be hourly, nightly, daily, weekly or an ISO-8601 duration of "
                                        + "a second or more, such as PT24H"),
                        new FieldViolation("spec.repetitions", "required: a whole number"),
                        new FieldViolation("spec.timeout_seconds", "is out of range"));
    }

    @Test
    void aNumberIsNotAStringInJsonButAYamlScalarIsItsText() {
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "{\"reason\": 7}", RetractRequest.class))
                .containsExactly(new FieldViolation("reason", "must be a string"));
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "{\"ids\": [\"5\"]}", RedriveRequest.class))
                .containsExactly(new FieldViolation("ids[0]", "must be a whole number"));
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "{\"ids\": [1.5]}", RedriveRequest.class))
                .containsExactly(new FieldViolation("ids[0]", "must be a whole number"));
        RetractRequest yaml = BINDER.valid(BINDER.bind(read(YAML, "reason: 7\n"), RetractRequest.class));
        assertThat(yaml.reason()).isEqualTo("7");
    }

    @Test
    void constraintsOfNestedValuesNameTheirIndexOrKey() {
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, """
                {"name": "n", "pools": ["ok", "bad pool"], "spec": {"benchmark": "b", "adapter": "reference",
                 "repetitions": -1, "warmup_steps": 0, "timeout_seconds": 60, "nodes": 1, "devices_per_node": 1},
                 "secrets": {"NOT A NAME": "x", "EMPTY": ""}}"""))
                .containsExactly(
                        new FieldViolation(
                                "pools[1]",
                                "must be a letter or digit, then letters, digits, '.', '_' or '-'; "
                                        + "64 characters at most"),
                        new FieldViolation("secrets.EMPTY", "must not be empty"),
                        new FieldViolation(
                                "secrets.NOT A NAME",
                                "is not an environment variable name (a letter or '_', "
                                        + "then letters, digits or '_'; 128 characters at most)"),
                        new FieldViolation("spec.repetitions", "must not be negative, was -1"));
    }

    @Test
    void aSecretValueIsNeverRepeatedInAnAnswer() {
        String secret = "hf_s3cr3t_value";
        for (String body : List.of(
                "{\"name\": \"n\", \"pools\": [\"p\"], \"secrets\": {\"T\": [\"" + secret + "\"]}}",
                "{\"name\": \"n\", \"pools\": [\"p\"], \"secrets\": {\"T\": " + secret + "}}",
                "{\"name\": \"n\", \"pools\": [\"p\"], \"secrets\": {\"T\": \"" + secret + "\u0000\"}}",
                "{\"name\": \"n\", \"pools\": [\"p\"], \"secrets\": {\"T\": \"" + secret + "\"}, \"secrets\": {}}")) {
            assertThat(violations(MediaType.APPLICATION_JSON_TYPE, body))
                    .as(body)
                    .isNotEmpty()
                    .allSatisfy(v -> assertThat(v.field() + v.message()).doesNotContain(secret));
        }
    }

    @Test
    void aBodyThatDoesNotParseSaysWhere() {
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "{\"name\": "))
                .singleElement()
                .satisfies(v -> assertThat(v.field()).isEqualTo("$"))
                .satisfies(v -> assertThat(v.message()).startsWith("not valid JSON at line 1, column"));
        assertThat(violations(YAML, "name: x\n---\nname: y\n"))
                .containsExactly(new FieldViolation("$", "holds more than one document"));
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "[".repeat(100) + "]".repeat(100)))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).startsWith("over a limit: Document nesting depth (33)"));
        assertThat(violations(MediaType.APPLICATION_JSON_TYPE, "[1]"))
                .containsExactly(new FieldViolation("$", "must be an object"));
    }

    private static List<FieldViolation> violations(MediaType type, String body) {
        return violations(type, body, NewCampaignRequest.class);
    }

    private static List<FieldViolation> violations(MediaType type, String body, Class<?> target) {
        InvalidRequestException e = catchThrowableOfType(
                InvalidRequestException.class, () -> BINDER.valid(BINDER.bind(read(type, body), target)));
        return e == null ? List.of() : e.violations();
    }

    private static RequestBinder.Body read(MediaType type, String body) {
        return BINDER.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), type);
    }
}
