package dev.podium.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactorTest {

    @Test
    void secretLookingEnvironmentNamesAreMaskedOthersKept() {
        Redactor r = Redactor.of(Map.of("HF_TOKEN", "hf_abcdef123456"), List.of());
        Map<String, String> env = r.environment(Map.of(
                "HF_TOKEN",
                "hf_abcdef123456",
                "WANDB_API_KEY",
                "k-999999",
                "DB_PASSWORD",
                "pw",
                "OMP_NUM_THREADS",
                "4",
                "AWS_SECRET_ACCESS_KEY",
                "s3cr3t"));
        assertThat(env)
                .containsEntry("HF_TOKEN", "***")
                .containsEntry("WANDB_API_KEY", "***")
                .containsEntry("DB_PASSWORD", "***")
                .containsEntry("AWS_SECRET_ACCESS_KEY", "***")
                .containsEntry("OMP_NUM_THREADS", "4");
    }

    @Test
    void flagsWithSecretNamesAreMaskedInBothForms() {
        Redactor r =
                Redactor.of(Map.of(), List.of("train.py", "--token=abc12345", "--api-key", "xyz98765", "--lr", "0.1"));
        assertThat(r.args(List.of("train.py", "--token=abc12345", "--api-key", "xyz98765", "--lr", "0.1")))
                .containsExactly("train.py", "--token=***", "--api-key", "***", "--lr", "0.1");
    }

    @Test
    void knownSecretValuesAndInlineAssignmentsAreScrubbedFromFreeText() {
        Redactor r = Redactor.of(Map.of("HF_TOKEN", "hf_abcdef123456"), List.of("--password=hunter22"));
        String log = "using hf_abcdef123456 to download\nlogin hunter22 ok\nexport GITHUB_TOKEN=ghp_zzzzzzzz; next";
        String clean = r.text(log);
        assertThat(clean)
                .doesNotContain("hf_abcdef123456", "hunter22", "ghp_zzzzzzzz")
                .contains("GITHUB_TOKEN=***");
    }

    @Test
    void keyIdsAreNotSecrets() {
        assertThat(Redactor.isSecretName("PODIUM_KEY_ID")).isFalse();
        assertThat(Redactor.isSecretName("PODIUM_KEY_SECRET")).isTrue();
        assertThat(Redactor.isSecretName("SSH_PRIVATE_KEY")).isTrue();
    }

    @Test
    void jsonAndDictStyleSecretKeysAreMasked() {
        String clean = Redactor.none().text("""
                {"user": "me", "password": "hunter2-json", "api_key":"k3y-json", "n": 1}
                config = {'access_token': 'tok-dict', "client_secret": "with \\"quote\\" inside", 'pin_passwd': 123456}
                """);
        assertThat(clean)
                .doesNotContain("hunter2-json", "k3y-json", "tok-dict", "quote", "123456")
                .contains("\"user\": \"me\"", "\"password\": \"***\"", "'access_token': '***'", "\"n\": 1");
        assertThat(Redactor.none().text("{\"output_tokens_per_second\": 812.5, \"tokenizer\": \"gpt2\"}"))
                .as("throughput of tokens is not a secret")
                .contains("812.5", "gpt2");
    }

    @Test
    void authorizationHeadersAndBearerTokensAreMasked() {
        String clean = Redactor.none().text("""
                curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig" https://api
                > Authorization: Basic dXNlcjpwYXNzd29yZA==
                proxy-authorization=Negotiate YIIBhgYGKwYBBQUCoIIB
                {"Authorization": "token ghp_abcdefghijkl"}
                requests: sending bearer abcdefghijklmnop to the hub
                """);
        assertThat(clean)
                .doesNotContain(
                        "eyJhbGciOiJIUzI1NiJ9",
                        "dXNlcjpwYXNzd29yZA",
                        "YIIBhgYGKwYBBQUCoIIB",
                        "ghp_abcdefghijkl",
                        "abcdefghijklmnop")
                .contains("Authorization: Bearer ***", "Authorization: Basic ***", "bearer ***");
    }

    @Test
    void passwordsInUrlsAreMaskedAndTheRestOfTheUrlKept() {
        String clean = Redactor.none()
                .text(
                        "git clone https://alice:s3cr3t-pw@github.com/x/y.git; psql postgresql://podium:db-pass-9@db:5432/podium"
                                + " and http://plain.example/a:b@c stays readable");
        assertThat(clean)
                .doesNotContain("s3cr3t-pw", "db-pass-9")
                .contains("https://alice:***@github.com/x/y.git", "postgresql://podium:***@db:5432/podium");
    }

    @Test
    void valuesAGrantMarkedSecretAreMaskedWhateverTheirNameOrLength() {
        Redactor r = Redactor.of(Map.of(), List.of()).alsoMasking(List.of("x7q", "plain-looking-value"));
        assertThat(r.text("MODEL_REVISION=plain-looking-value and code x7q"))
                .isEqualTo("MODEL_REVISION=*** and code ***");
    }
}
